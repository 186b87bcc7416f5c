// A loosening of the permission mode is the person's yes in main's own dialog
// (the NativeConfirm port, faked at that edge): whatever a page sends, the
// mode stays until that yes. Tightening never asks.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MODE_WARNINGS } from '../../../src/main/core/policy/modes';
import { clientId, type ClientId, type EventSink } from '../../../src/main/service/clients';
import { dispatchInvoke } from '../../../src/main/service/dispatch';
import { MinoService } from '../../../src/main/service/minoService';
import type { EventChannel } from '../../../src/shared/ipc';
import type { SessionView } from '../../../src/shared/sessions';
import { FakeFolderPicker } from '../../support/bridge/fakeFolderPicker';
import { FakeNativeConfirm } from '../../support/bridge/fakeNativeConfirm';
import { MemorySecretStore } from '../../support/bridge/memorySecretStore';

let root: string;
let services: MinoService[];

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-modes-')));
  await fs.mkdir(path.join(root, 'home', '.mino'), { recursive: true });
  await fs.mkdir(path.join(root, 'project'));
  services = [];
});

afterEach(async () => {
  await Promise.all(services.map((service) => service.close()));
  await fs.rm(root, { recursive: true, force: true });
});

function makeService(native: FakeNativeConfirm | null) {
  const picker = new FakeFolderPicker();
  const service = new MinoService({
    homeDir: path.join(root, 'home'),
    appName: 'Mino',
    appVersion: '1.2.3',
    secrets: new MemorySecretStore(),
    pickFolder: picker.pick,
    env: {},
    ...(native ? { confirm: native.confirm } : {}),
  });
  services.push(service);
  return { service, picker };
}

/** A window with the project open and a session of its own, recording what it is told. */
async function windowWithSession(native: FakeNativeConfirm | null, name = 'w') {
  const { service, picker } = makeService(native);
  const id: ClientId = clientId(name);
  const events: Array<{ event: EventChannel; payload: unknown }> = [];
  const sink: EventSink = (event, payload) => events.push({ event, payload });
  service.attachClient(id, sink);
  const call = (channel: string, input?: unknown) => dispatchInvoke(service, id, channel, input);
  picker.willPick(path.join(root, 'project'));
  await call('projects:pick');
  await call('sessions:new');
  const mode = async () => {
    const current = await call('sessions:current');
    if (!current.ok) throw new Error(current.error);
    return (current.value as SessionView).mode;
  };
  const modeChanges = () => events.filter((entry) => entry.event === 'session:changed');
  return { id, service, call, mode, modeChanges };
}

describe('loosening the permission mode', () => {
  it('asks in main with the mode table\'s warning, and applies the mode only after the yes', async () => {
    const native = new FakeNativeConfirm();
    native.answer = 'hold';
    const w = await windowWithSession(native);
    const pending = w.call('mode:set', { mode: 'bypass' });
    const held = await native.nextHeld();
    expect(held.client).toBe(w.id);
    expect(held.question).toEqual({
      title: 'Loosen the permission mode?',
      message: 'Switch this session to bypass mode?',
      detail: `${MODE_WARNINGS.bypass}\n\nIf you cancel, the session stays in manual.`,
      confirmLabel: 'Switch to bypass',
    });
    // While the dialog is open, nothing has changed.
    expect(await w.mode()).toBe('manual');
    held.answer(true);
    expect(await pending).toEqual({ ok: true, value: { status: 'changed', mode: 'bypass', message: 'Permission mode for this session: bypass.' } });
    expect(await w.mode()).toBe('bypass');
    expect(w.modeChanges().at(-1)).toMatchObject({ payload: { mode: 'bypass' } });
  });

  it('keeps the mode after the native no, and says so', async () => {
    const native = new FakeNativeConfirm();
    const w = await windowWithSession(native);
    const result = await w.call('mode:set', { mode: 'accept-edits' });
    expect(result).toEqual({
      ok: true,
      value: { status: 'unchanged', mode: 'manual', message: 'You did not confirm accept-edits mode. Permission mode for this session unchanged: manual.' },
    });
    expect(native.questions).toHaveLength(1);
    expect(await w.mode()).toBe('manual');
    expect(w.modeChanges()).toEqual([]);
  });

  it.each([
    ['the mode alone', { mode: 'bypass' }],
    ['an old-style confirmation id', { mode: 'bypass', confirmationId: randomUUID() }],
    ['a claim that the person confirmed', { mode: 'bypass', confirmed: true }],
    ['the warning sent back', { mode: 'bypass', warning: MODE_WARNINGS.bypass, accepted: true }],
    ['a mode name with spaces', { mode: ' bypass ' }],
  ])('cannot be done by a page sending %s without the native yes', async (_what, input) => {
    const native = new FakeNativeConfirm();
    const w = await windowWithSession(native);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const result = await w.call('mode:set', input);
      if (result.ok) expect(result.value).toMatchObject({ status: 'unchanged', mode: 'manual' });
      else expect(result.error).toMatch(/^Invalid request mode:set: unknown field/);
    }
    expect(await w.mode()).toBe('manual');
    expect(w.modeChanges()).toEqual([]);
  });

  it('is refused, saying why, where main has no way to ask', async () => {
    const w = await windowWithSession(null);
    expect(await w.call('mode:set', { mode: 'bypass' })).toEqual({
      ok: true,
      value: {
        status: 'error',
        mode: 'manual',
        message: 'Mino cannot ask you here to confirm bypass mode, so it was not applied. Permission mode for this session unchanged: manual.',
      },
    });
    expect(await w.mode()).toBe('manual');
  });

  it('asks once at a time for a session: a second loosening while the dialog is open is refused', async () => {
    const native = new FakeNativeConfirm();
    native.answer = 'hold';
    const w = await windowWithSession(native);
    const first = w.call('mode:set', { mode: 'accept-edits' });
    const held = await native.nextHeld();
    expect(await w.call('mode:set', { mode: 'bypass' })).toEqual({
      ok: true,
      value: {
        status: 'error',
        mode: 'manual',
        message:
          "Mino is already asking you, in its own dialog, whether to switch this session to accept-edits mode: answer it there first. Permission mode for this session unchanged: manual.",
      },
    });
    expect(native.questions).toHaveLength(1);
    held.answer(true);
    expect(await first).toMatchObject({ ok: true, value: { status: 'changed', mode: 'accept-edits' } });
  });

  it('does not apply a yes that comes after the session was closed', async () => {
    const native = new FakeNativeConfirm();
    native.answer = 'hold';
    const w = await windowWithSession(native);
    const pending = w.call('mode:set', { mode: 'bypass' });
    const held = await native.nextHeld();
    const view = await w.call('sessions:current');
    if (!view.ok) throw new Error(view.error);
    const sessionId = (view.value as SessionView).id;
    // The window leaves: its session closes while the dialog is still open.
    await w.service.detachClient(w.id);
    held.answer(true);
    await pending;
    const again = clientId('again');
    w.service.attachClient(again, () => undefined);
    const reopened = await dispatchInvoke(w.service, again, 'sessions:open', { id: sessionId });
    expect(reopened).toMatchObject({ ok: true, value: { session: { mode: 'manual' } } });
  });
});

describe('tightening the permission mode', () => {
  it('applies at once, without asking', async () => {
    const native = new FakeNativeConfirm();
    native.answer = true;
    const w = await windowWithSession(native);
    await w.call('mode:set', { mode: 'bypass' });
    expect(native.questions).toHaveLength(1);
    native.answer = false;
    expect(await w.call('mode:set', { mode: 'accept-edits' })).toEqual({
      ok: true,
      value: { status: 'changed', mode: 'accept-edits', message: 'Permission mode for this session: accept-edits.' },
    });
    expect(await w.call('mode:set', { mode: 'manual' })).toMatchObject({ ok: true, value: { status: 'changed', mode: 'manual' } });
    expect(native.questions).toHaveLength(1);
  });
});
