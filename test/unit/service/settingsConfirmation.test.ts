// Widening what a sandboxed command can reach is the person's yes in main's
// own dialog (the NativeConfirm port, faked at that edge), never a page's:
// a new home folder in `sandboxReadable`, or the sandbox turned off. Shrinking
// is immediate. The settings view says what sandboxes commands.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_TURNED_OFF } from '../../../src/main/core/agent/defaultDeps';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { clientId } from '../../../src/main/service/clients';
import { dispatchInvoke } from '../../../src/main/service/dispatch';
import { MinoService } from '../../../src/main/service/minoService';
import { DEFAULT_SANDBOX_READABLE } from '../../../src/shared/sandboxReadable';
import { FakeFolderPicker } from '../../support/bridge/fakeFolderPicker';
import { FakeNativeConfirm } from '../../support/bridge/fakeNativeConfirm';
import { MemorySecretStore } from '../../support/bridge/memorySecretStore';

let home: string;
let configFile: string;

beforeEach(async () => {
  home = path.join(await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-settings-'))), 'home');
  await fs.mkdir(path.join(home, '.mino'), { recursive: true });
  configFile = path.join(home, '.mino', 'config.json');
});

afterEach(async () => {
  await fs.rm(path.dirname(home), { recursive: true, force: true });
});

function windowOf(native: FakeNativeConfirm | null) {
  const service = new MinoService({
    homeDir: home,
    appName: 'Mino',
    appVersion: '1.2.3',
    secrets: new MemorySecretStore(),
    pickFolder: new FakeFolderPicker().pick,
    env: {},
    ...(native ? { confirm: native.confirm } : {}),
  });
  const id = clientId('w');
  service.attachClient(id, () => undefined);
  return (channel: string, input?: unknown) => dispatchInvoke(service, id, channel, input);
}

async function stored(): Promise<Record<string, unknown> | null> {
  const text = await fs.readFile(configFile, 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as Record<string, unknown>);
}

const WITH_GCLOUD = [...DEFAULT_SANDBOX_READABLE, '~/.config/gcloud'];

describe('adding a home folder the sandbox can read', () => {
  it('asks in main, naming the folders added, and a no saves nothing', async () => {
    const native = new FakeNativeConfirm();
    const call = windowOf(native);
    const result = await call('settings:set', { sandboxReadable: [...WITH_GCLOUD, '/srv/keys'], model: 'other-model' });
    expect(result).toEqual({
      ok: false,
      error: 'Nothing was saved: sandboxed commands still cannot read ~/.config/gcloud and /srv/keys. You chose not to let them.',
    });
    expect(native.questions).toEqual([
      {
        title: 'Let sandboxed commands read more of your home?',
        message: 'Let every sandboxed command read these 2 folders?',
        detail:
          '~/.config/gcloud\n/srv/keys\n\nEvery bash command would see the files there (read-only), and the model reads what a command prints. ' +
          'Add only folders of programs and libraries, never one that holds keys, tokens or passwords.',
        confirmLabel: 'Let them read',
      },
    ]);
    expect(await stored()).toBeNull();
  });

  it('saves after the yes', async () => {
    const native = new FakeNativeConfirm();
    native.answer = true;
    const call = windowOf(native);
    expect(await call('settings:set', { sandboxReadable: WITH_GCLOUD })).toMatchObject({ ok: true, value: { settings: { sandboxReadable: WITH_GCLOUD } } });
    expect(native.questions.map((question) => question.message)).toEqual(['Let every sandboxed command read ~/.config/gcloud?']);
    expect(await stored()).toEqual({ sandboxReadable: WITH_GCLOUD });
  });

  it('is refused where main has no way to ask', async () => {
    const call = windowOf(null);
    expect(await call('settings:set', { sandboxReadable: WITH_GCLOUD })).toEqual({
      ok: false,
      error: 'Nothing was saved: sandboxed commands still cannot read ~/.config/gcloud. Mino cannot ask you here whether to let them.',
    });
    expect(await stored()).toBeNull();
  });

  it('does not ask to shrink the list, nor for the same folders written another way', async () => {
    const native = new FakeNativeConfirm();
    const call = windowOf(native);
    const fewer = DEFAULT_SANDBOX_READABLE.filter((entry) => entry !== '~/.nvm');
    expect(await call('settings:set', { sandboxReadable: fewer })).toMatchObject({ ok: true });
    expect(await stored()).toEqual({ sandboxReadable: fewer });
    const sameFolders = [`${home}/.rustup/`, '~/.cargo/bin//', ...fewer.slice(0, 3)];
    expect(await call('settings:set', { sandboxReadable: sameFolders, model: 'other-model' })).toMatchObject({ ok: true });
    expect(native.questions).toEqual([]);
  });
});

describe('turning the sandbox off', () => {
  it('asks in main, saying every command would run with full rights, and a no keeps it on', async () => {
    const native = new FakeNativeConfirm();
    const call = windowOf(native);
    expect(await call('settings:set', { bashSandbox: false })).toEqual({
      ok: false,
      error: 'Nothing was saved: bash commands stay in the sandbox. You chose to keep it on.',
    });
    expect(native.questions).toEqual([
      {
        title: 'Turn off the bash sandbox?',
        message: 'Run every bash command with your full rights?',
        detail:
          "Without the sandbox every bash command runs with your account's permissions: it can read, change and delete any of your files, " +
          'read your keys and tokens, and reach the network. In bypass mode it runs without asking you.',
        confirmLabel: 'Turn off the sandbox',
      },
    ]);
    expect(await stored()).toBeNull();
  });

  it('saves after the yes, and the settings view then says commands are not sandboxed, and why', async () => {
    const native = new FakeNativeConfirm();
    native.answer = true;
    const call = windowOf(native);
    expect(await call('settings:set', { bashSandbox: false })).toMatchObject({
      ok: true,
      value: { settings: { bashSandbox: false }, sandbox: { available: false, reason: SANDBOX_TURNED_OFF } },
    });
    // Off already, or back on: nothing to ask.
    expect(await call('settings:set', { bashSandbox: false })).toMatchObject({ ok: true });
    expect(await call('settings:set', { bashSandbox: true })).toMatchObject({ ok: true });
    expect(native.questions).toHaveLength(1);
  });

  it('is refused where main has no way to ask', async () => {
    const call = windowOf(null);
    expect(await call('settings:set', { bashSandbox: false })).toEqual({
      ok: false,
      error: 'Nothing was saved: bash commands stay in the sandbox. Mino cannot ask you here whether to turn it off.',
    });
  });
});

describe('the sandbox in the settings view', () => {
  it('names the program and its version that sandbox commands here, or why there is none', async () => {
    const call = windowOf(null);
    const machine = await sandboxAvailability();
    const expected = machine.available
      ? { available: true, kind: machine.kind, program: machine.program, version: machine.version }
      : { available: false, reason: machine.reason };
    const view = await call('settings:get');
    expect(view).toMatchObject({ ok: true, value: { sandbox: expected } });
    if (view.ok) expect(Object.keys((view.value as { sandbox: object }).sandbox).sort()).toEqual(Object.keys(expected).sort());
  });
});
