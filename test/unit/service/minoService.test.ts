import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINO_HOME_OVERLAP_MESSAGE } from '../../../src/main/core/fs/projectGuard';
import { clientId, type EventSink } from '../../../src/main/service/clients';
import { dispatchInvoke } from '../../../src/main/service/dispatch';
import { MinoService } from '../../../src/main/service/minoService';
import type { EventChannel } from '../../../src/shared/ipc';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { FakeFolderPicker } from '../../support/bridge/fakeFolderPicker';
import { MemorySecretStore } from '../../support/bridge/memorySecretStore';

let root: string;
let home: string;
let picker: FakeFolderPicker;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-service-')));
  home = path.join(root, 'home');
  await fs.mkdir(path.join(home, '.mino'), { recursive: true });
  picker = new FakeFolderPicker();
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function makeService(env: NodeJS.ProcessEnv = {}) {
  return new MinoService({ homeDir: home, appName: 'Mino', appVersion: '1.2.3', secrets: new MemorySecretStore(), pickFolder: picker.pick, env });
}

/** Attaches a client that records the events it receives. */
function connect(service: MinoService, name: string) {
  const id = clientId(name);
  const events: Array<{ event: EventChannel; payload: unknown }> = [];
  const sink: EventSink = (event, payload) => events.push({ event, payload });
  service.attachClient(id, sink);
  return { id, events, call: (channel: string, input?: unknown) => dispatchInvoke(service, id, channel, input) };
}

async function makeProject(name: string): Promise<string> {
  const dir = path.join(home, name);
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

describe('MinoService: projects', () => {
  it('refuses the home directory (it contains ~/.mino) with the guard message, and remembers nothing', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    picker.willPick(home);
    const result = await window.call('projects:pick');
    expect(result).toEqual({ ok: false, error: expect.stringContaining(MINO_HOME_OVERLAP_MESSAGE) });
    expect(await window.call('projects:current')).toEqual({ ok: true, value: null });
    await expect(fs.access(path.join(home, '.mino', 'recent-projects.json'))).rejects.toThrow();
  });

  it('refuses an ancestor of home, and a symlinked route to home', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    picker.willPick(root);
    expect(await window.call('projects:pick')).toMatchObject({ ok: false, error: expect.stringContaining('~/.mino') });
    const link = path.join(root, 'home-link');
    await fs.symlink(home, link);
    picker.willPick(link);
    expect(await window.call('projects:pick')).toMatchObject({ ok: false, error: expect.stringContaining('~/.mino') });
  });

  it('refuses a file and a folder that disappeared, saying what to do', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    const file = path.join(root, 'notes.txt');
    await fs.writeFile(file, 'x');
    picker.willPick(file);
    expect(await window.call('projects:pick')).toMatchObject({ ok: false, error: expect.stringContaining('is not a folder') });
    picker.willPick(path.join(root, 'gone'));
    expect(await window.call('projects:pick')).toMatchObject({ ok: false, error: expect.stringContaining('does not exist') });
  });

  it.skipIf(process.getuid?.() === 0)('refuses a folder it cannot read', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    const locked = await makeProject('locked');
    await fs.chmod(locked, 0o000);
    try {
      picker.willPick(locked);
      expect(await window.call('projects:pick')).toMatchObject({ ok: false, error: expect.stringContaining('cannot be read') });
    } finally {
      await fs.chmod(locked, 0o700);
    }
  });

  it('opens a picked folder for that window only, remembers it (0600) and tells every window', async () => {
    const service = makeService();
    const a = connect(service, 'a');
    const b = connect(service, 'b');
    const project = await makeProject('app');
    picker.willPick(project);
    expect(await a.call('projects:pick')).toEqual({ ok: true, value: { opened: true, project: { path: project, name: 'app' } } });
    expect(await a.call('projects:current')).toEqual({ ok: true, value: { path: project, name: 'app' } });
    expect(await b.call('projects:current')).toEqual({ ok: true, value: null });

    const recentFile = path.join(home, '.mino', 'recent-projects.json');
    expect((await fs.stat(recentFile)).mode & 0o777).toBe(0o600);
    expect(b.events).toEqual([{ event: 'projects:recentChanged', payload: [expect.objectContaining({ path: project, name: 'app' })] }]);
  });

  it('returns opened: false when the person cancels the picker', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    picker.willPick(null);
    expect(await window.call('projects:pick')).toEqual({ ok: true, value: { opened: false } });
  });

  it('keeps recent projects newest first and prunes folders that are gone', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    const first = await makeProject('first');
    const second = await makeProject('second');
    for (const dir of [first, second, first]) {
      picker.willPick(dir);
      await window.call('projects:pick');
    }
    const listed = await window.call('projects:recent');
    expect(listed.ok && (listed.value as Array<{ path: string }>).map((p) => p.path)).toEqual([first, second]);
    await fs.rm(second, { recursive: true });
    const pruned = await window.call('projects:recent');
    expect(pruned.ok && (pruned.value as Array<{ path: string }>).map((p) => p.path)).toEqual([first]);
    expect(JSON.parse(await fs.readFile(path.join(home, '.mino', 'recent-projects.json'), 'utf8')).projects).toHaveLength(1);
  });

  it('opens a recent project by path, but not a path that is not in the list', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    const project = await makeProject('known');
    picker.willPick(project);
    await window.call('projects:pick');
    const other = connect(service, 'other');
    expect(await other.call('projects:openRecent', { path: project })).toMatchObject({ ok: true, value: { opened: true } });
    expect(await other.call('projects:openRecent', { path: await makeProject('unknown') })).toEqual({
      ok: false,
      error: expect.stringContaining('is not in your recent projects'),
    });
    expect(picker.calls).toBe(1);
  });

  it('refuses a recent project whose folder disappeared and drops it from the list', async () => {
    const service = makeService();
    const window = connect(service, 'w');
    const project = await makeProject('vanishing');
    picker.willPick(project);
    await window.call('projects:pick');
    await fs.rm(project, { recursive: true });
    expect(await window.call('projects:openRecent', { path: project })).toMatchObject({ ok: false, error: expect.stringContaining('does not exist') });
    expect(await window.call('projects:recent')).toEqual({ ok: true, value: [] });
  });
});

describe('MinoService: settings, key and clients', () => {
  it('saves settings and tells every window', async () => {
    const service = makeService();
    const a = connect(service, 'a');
    const b = connect(service, 'b');
    const sent = { baseUrl: 'https://models.example/v1', model: 'm', contextWindow: 64_000, checkpointCapMb: 500, streamIdleTimeout: 90, bashSandbox: true };
    // The fields not sent keep their defaults.
    const settings = { ...DEFAULT_SETTINGS, ...sent };
    expect(await a.call('settings:set', sent)).toMatchObject({ ok: true, value: { settings } });
    expect(b.events).toEqual([
      { event: 'settings:changed', payload: { settings, problems: [], path: path.join(home, '.mino', 'config.json'), sandbox: expect.objectContaining({ available: expect.any(Boolean) }) } },
    ]);
    expect(await b.call('settings:get')).toMatchObject({ ok: true, value: { settings } });
  });

  it('reports an invalid settings file on read instead of showing defaults', async () => {
    await fs.writeFile(path.join(home, '.mino', 'config.json'), 'nope');
    const window = connect(makeService(), 'w');
    expect(await window.call('settings:get')).toEqual({ ok: false, error: expect.stringContaining('is not valid JSON') });
  });

  it('says whether a key is set and where it comes from, never the key itself', async () => {
    const stored = makeService();
    const window = connect(stored, 'w');
    expect(await window.call('apiKey:status')).toEqual({ ok: true, value: { set: false, source: null } });
    const set = await window.call('apiKey:set', { apiKey: 'sk-secret-1' });
    expect(set).toEqual({ ok: true, value: { set: true, source: 'stored' } });
    expect(JSON.stringify(set)).not.toContain('sk-secret-1');
    expect(await stored.apiKey()).toBe('sk-secret-1');

    const fromEnv = makeService({ OPENAI_API_KEY: 'sk-env' });
    expect(await connect(fromEnv, 'w').call('apiKey:status')).toEqual({ ok: true, value: { set: true, source: 'environment' } });
    expect(await fromEnv.apiKey()).toBe('sk-env');
  });

  it('answers app info, with no log folder where nothing writes one', async () => {
    expect(await connect(makeService(), 'w').call('app:info')).toEqual({ ok: true, value: { name: 'Mino', version: '1.2.3', platform: process.platform, logDirectory: null } });
  });

  it('refuses requests from a client that is not attached, and forgets a detached one', async () => {
    const service = makeService();
    expect(await dispatchInvoke(service, clientId('stranger'), 'app:info', undefined)).toMatchObject({ ok: false, error: expect.stringContaining('not connected') });
    const window = connect(service, 'w');
    service.detachClient(window.id);
    expect(await window.call('app:info')).toMatchObject({ ok: false });
    expect(() => service.attachClient(clientId('dup'), () => undefined)).not.toThrow();
    expect(() => service.attachClient(clientId('dup'), () => undefined)).toThrow('already attached');
  });
});
