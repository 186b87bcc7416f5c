// The built app's own entry points, executed: out/main/index.js runs in this
// Node with `electron` resolved to a recording fake (the real module is never
// required: Electron's binary cannot run here), and out/preload/index.js runs
// in a vm context with a fake contextBridge and ipcRenderer. Everything else
// is real: the service, the files under a temp HOME, the loopback model
// service. `npm test` builds first; without out/ the suite says it skipped.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN } from '../../../src/main/electron/appProtocol';
import { rendererCsp } from '../../../src/main/electron/csp';
import { logFileFor } from '../../../src/main/core/log/sinks';
import { CLIPBOARD_WRITE } from '../../../src/main/electron/guards';
import { WINDOW_BACKGROUND } from '../../../src/main/electron/theme';
import { mainWindowOptions } from '../../../src/main/electron/windows';
import { EVENT_CHANNELS, EVENT_IPC_PREFIX, INVOKE_CHANNELS, invokeArgument, type InvokeChannel } from '../../../src/shared/ipc';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';
import { FakeDroppedFile, FakeWebContents, fakeElectronMain, fakeElectronPreload } from './fakeElectron';

const require = createRequire(import.meta.url);
const Module = require('node:module') as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
const OUT = path.resolve('out');
const MAIN = path.join(OUT, 'main', 'index.js');
const PRELOAD = path.join(OUT, 'preload', 'index.js');
const built = existsSync(MAIN) && existsSync(PRELOAD);

/** A source file changed after the last build, so the bundles would test yesterday's code. */
function staleSource(): string | null {
  const builtAt = Math.min(statSync(MAIN).mtimeMs, statSync(PRELOAD).mtimeMs);
  for (const dir of ['src/main', 'src/preload', 'src/shared']) {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && statSync(file).mtimeMs > builtAt) return file;
    }
  }
  return null;
}

type Fake = ReturnType<typeof fakeElectronMain>;
type Handler = (event: unknown, ...args: unknown[]) => Promise<{ ok: boolean; value?: unknown; error?: string }>;

/** Runs the built main with `electron` answered by the fake; every other module is the real one. */
function loadBuiltMain(fake: Fake): void {
  const original = Module._load;
  Module._load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
    if (request === 'electron' || request.startsWith('electron/')) return fake.module;
    return original.call(this, request, parent, isMain);
  };
  try {
    delete require.cache[MAIN];
    require(MAIN);
  } finally {
    Module._load = original;
  }
}

async function until<T>(probe: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const realElectronLoaded = () => Object.keys(require.cache).some((file) => /node_modules[\\/]electron[\\/]/.test(file));

describe.skipIf(!built)(`the built main process (${built ? 'out/main/index.js' : 'skipped: out/ is missing, run npm run build first'})`, () => {
  let root: string;
  let home: string;
  let project: string;
  let server: MockResponsesServer;
  let fake: Fake;
  const savedEnv = { ...process.env };
  const ownFrame = () => ({ sender: fake.windows[0]!.webContents, senderFrame: { parent: null, url: APP_ENTRY_URL } });
  const call = (channel: string, input?: unknown, event: unknown = ownFrame()) => (fake.handlers.get(channel) as Handler)(event, input);

  beforeAll(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-wiring-')));
    home = path.join(root, 'home');
    project = path.join(root, 'project');
    await fs.mkdir(home);
    await fs.mkdir(project);
    server = await startMockResponsesServer();
    Object.assign(process.env, {
      HOME: home,
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'test-key',
      MINO_MODEL: 'mock-model',
      MINO_DISABLE_GPU: '1',
      XDG_CURRENT_DESKTOP: 'sway',
    });
    // The person chose the dark theme last time.
    await fs.mkdir(path.join(home, '.mino'), { mode: 0o700 });
    await fs.writeFile(path.join(home, '.mino', 'config.json'), JSON.stringify({ theme: 'dark' }), { mode: 0o600 });
    fake = fakeElectronMain();
    loadBuiltMain(fake);
  });

  afterAll(async () => {
    process.env = savedEnv;
    await server?.close();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('is built from the current sources (else run npm run build; npm test does)', () => {
    expect(staleSource(), 'a source file newer than out/').toBeNull();
  });

  it('registers app:// as a privileged scheme before ready, and handles it only after', async () => {
    const names = () => fake.calls.map((c) => c.what);
    expect(names()).toContain('protocol.registerSchemesAsPrivileged');
    expect(names()).not.toContain('protocol.handle');
    expect(fake.calls.find((c) => c.what === 'protocol.registerSchemesAsPrivileged')?.args[0]).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    expect(names()).toContain('app.enableSandbox');

    fake.emitReady();
    await until(() => fake.windows.length === 1, 'the first window');
    const order = names();
    expect(order.indexOf('protocol.registerSchemesAsPrivileged')).toBeLessThan(order.indexOf('ready'));
    expect(order.indexOf('protocol.handle')).toBeGreaterThan(order.indexOf('ready'));
    expect(fake.calls.find((c) => c.what === 'protocol.handle')?.args).toEqual(['app']);
  });

  it('turns the GPU off for MINO_DISABLE_GPU and, on Linux, asks the Secret Service on an unmapped desktop, all before ready', () => {
    const order = fake.calls.map((c) => c.what);
    expect(order.indexOf('app.disableHardwareAcceleration')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('app.disableHardwareAcceleration')).toBeLessThan(order.indexOf('ready'));
    const keyring = fake.calls.find((c) => c.what === 'app.commandLine.appendSwitch');
    if (process.platform === 'linux') {
      expect(keyring?.args).toEqual(['password-store', 'gnome-libsecret']);
      expect(fake.calls.indexOf(keyring!)).toBeLessThan(order.indexOf('ready'));
    } else {
      expect(keyring).toBeUndefined();
    }
  });

  it('takes the single-instance lock before ready, and opens a new window when Mino is launched again', async () => {
    const order = fake.calls.map((c) => c.what);
    expect(order.indexOf('app.requestSingleInstanceLock')).toBeLessThan(order.indexOf('ready'));
    fake.app.emit('second-instance', {}, ['electron', '.'], home);
    await until(() => fake.windows.length === 2, 'a window for the second launch');
    expect(fake.windows[1]!.loadedUrls).toEqual([APP_ENTRY_URL]);
    fake.windows[1]!.destroyed = true;
    fake.windows[1]!.emit('closed');
  });

  it('quits a second launch at once, before it opens anything', async () => {
    const second = fakeElectronMain();
    second.control.singleInstanceLock = false;
    loadBuiltMain(second);
    second.emitReady();
    await new Promise((resolve) => setImmediate(resolve));
    expect(second.calls.map((c) => c.what)).toContain('app.quit');
    expect(second.windows).toEqual([]);
    expect(second.calls.some((c) => c.what === 'protocol.handle')).toBe(false);
  });

  it('starts windows in the saved theme and repaints them when the Theme setting changes', async () => {
    const [window] = fake.windows;
    expect(fake.nativeTheme.themeSource).toBe('dark');
    expect(window!.options.backgroundColor).toBe(WINDOW_BACKGROUND.dark);
    expect(await call('settings:set', { theme: 'light' })).toMatchObject({ ok: true });
    expect(fake.nativeTheme.themeSource).toBe('light');
    expect(window!.backgrounds.at(-1)).toBe(WINDOW_BACKGROUND.light);
    expect(await call('settings:set', { theme: 'dark' })).toMatchObject({ ok: true });
    expect(window!.backgrounds.at(-1)).toBe(WINDOW_BACKGROUND.dark);
  });

  it("lets the app's own page write to the clipboard, and refuses every other permission", () => {
    const { permissions } = fake.windows[0]!.webContents;
    const ask = (permission: string, requestingUrl: string, isMainFrame = true) => {
      let granted: boolean | undefined;
      permissions.request!({}, permission, (answer: boolean) => (granted = answer), { requestingUrl, isMainFrame });
      return granted;
    };
    expect(ask(CLIPBOARD_WRITE, APP_ENTRY_URL)).toBe(true);
    expect(permissions.check!({}, CLIPBOARD_WRITE, APP_ORIGIN, { isMainFrame: true })).toBe(true);
    expect(ask(CLIPBOARD_WRITE, APP_ENTRY_URL, false)).toBe(false);
    expect(ask(CLIPBOARD_WRITE, 'https://example.com/')).toBe(false);
    expect(ask('clipboard-read', APP_ENTRY_URL)).toBe(false);
    expect(ask('notifications', APP_ENTRY_URL)).toBe(false);
  });

  it('serves out/renderer/index.html over app:// with the CSP header, and nothing outside it', async () => {
    const handler = fake.protocolHandler!;
    const response = await handler(new Request(APP_ENTRY_URL));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Security-Policy')).toBe(rendererCsp());
    expect(await response.text()).toBe(readFileSync(path.join(OUT, 'renderer', 'index.html'), 'utf8'));
    expect((await handler(new Request(`${APP_ORIGIN}/..%2fmain%2findex.js`))).status).toBe(404);
  });

  it('registers an IPC handler for every invoke channel of the contract and none other', () => {
    expect([...fake.handlers.keys()].sort()).toEqual(Object.keys(INVOKE_CHANNELS).sort());
  });

  it('creates the first window through the secure factory, with a preload that exists on disk', () => {
    const [window] = fake.windows;
    const preload = path.join(OUT, 'preload', 'index.js');
    expect(window!.options).toEqual(mainWindowOptions(preload, WINDOW_BACKGROUND.dark));
    expect(existsSync((window!.options.webPreferences as { preload: string }).preload)).toBe(true);
    expect(window!.loadedUrls).toEqual([APP_ENTRY_URL]);
  });

  it('answers a request from the window\'s own frame and refuses a foreign sender, a subframe and another origin', async () => {
    expect(await call('app:info')).toEqual({ ok: true, value: expect.objectContaining({ name: 'Mino', version: '0.0.0-wiring' }) });
    const foreign = { sender: new FakeWebContents(), senderFrame: { parent: null, url: APP_ENTRY_URL } };
    expect(await call('app:info', undefined, foreign)).toEqual({ ok: false, error: expect.stringContaining('did not come from a Mino window') });
    const subframe = { sender: fake.windows[0]!.webContents, senderFrame: { parent: {}, url: APP_ENTRY_URL } };
    expect(await call('app:info', undefined, subframe)).toEqual({ ok: false, error: expect.stringContaining('not an embedded frame') });
    const elsewhere = { sender: fake.windows[0]!.webContents, senderFrame: { parent: null, url: 'https://example.com/' } };
    expect(await call('app:info', undefined, elsewhere)).toEqual({ ok: false, error: expect.stringContaining('is not Mino\'s') });
  });

  it('writes the trail to ~/.mino/logs/mino-YYYY-MM-DD.log (0600), refusals included and the API key left out', async () => {
    const file = logFileFor(path.join(home, '.mino', 'logs'), new Date());
    const text = readFileSync(file, 'utf8');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(text).toMatch(/ info app\.start version=0\.0\.0-wiring /);
    expect(text).toMatch(/ warn ipc\.refused channel=app:info sender=\d+ frame=app:\/\/mino\/index\.html reason="Refused app:info: the request did not come from a Mino window\."/);
    expect(text).not.toContain('test-key');
    expect(await call('app:info')).toMatchObject({ ok: true, value: { logDirectory: path.join(home, '.mino', 'logs') } });
  });

  it('on will-quit, waits until the service has closed (the running turn saved as stopped) before quitting', async () => {
    fake.control.folderToPick = project;
    expect(await call('projects:pick')).toMatchObject({ ok: true });
    // The next folder dialog opens where this project is.
    expect(await call('projects:pick')).toMatchObject({ ok: true });
    expect(fake.folderDialogs.map((options) => options.defaultPath)).toEqual([undefined, project]);
    const opened = (await call('sessions:new')) as { ok: true; value: { where: 'here'; session: { id: string } } };
    expect(opened).toMatchObject({ ok: true, value: { where: 'here' } });
    const log = path.join(home, '.mino', 'sessions', `${opened.value.session.id}.jsonl`);
    server.enqueue({ hangAfterDeltas: ['Thinking'] });
    expect(await call('turn:send', { text: 'Take your time.' })).toEqual({ ok: true, value: { started: true } });
    await until(() => server.requests.length === 1, 'the model request');

    let logAtQuit = '';
    fake.control.onQuit = () => {
      logAtQuit = readFileSync(log, 'utf8');
    };
    let prevented = false;
    fake.app.emit('will-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    expect(fake.calls.some((c) => c.what === 'app.quit')).toBe(false);
    await until(() => fake.calls.some((c) => c.what === 'app.quit'), 'app.quit');
    expect(logAtQuit).toMatch(/"type":"turn_end","status":"aborted"/);

    // The quit it asked for goes through.
    let preventedAgain = false;
    fake.app.emit('will-quit', { preventDefault: () => (preventedAgain = true) });
    expect(preventedAgain).toBe(false);
  });

  it('shows an error dialog and exits when start-up fails', async () => {
    const failing = fakeElectronMain();
    delete process.env.HOME;
    delete process.env.USERPROFILE;
    loadBuiltMain(failing);
    failing.emitReady();
    await until(() => failing.calls.some((c) => c.what === 'app.exit'), 'app.exit');
    const dialog = failing.calls.find((c) => c.what === 'dialog.showErrorBox');
    expect(dialog?.args).toEqual(['Mino could not start', expect.stringContaining('Cannot find your home directory: set HOME')]);
    expect(failing.calls.find((c) => c.what === 'app.exit')?.args).toEqual([1]);
    expect(failing.windows).toEqual([]);
  });

  it('never loaded the real electron module', () => {
    expect(realElectronLoaded()).toBe(false);
  });
});

describe.skipIf(!built)(`the built preload (${built ? 'out/preload/index.js' : 'skipped: out/ is missing, run npm run build first'})`, () => {
  function runPreload() {
    const fake = fakeElectronPreload();
    const required: string[] = [];
    const module = { exports: {} };
    const context = vm.createContext({
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name);
        if (name === 'electron') return fake.module;
        throw new Error(`The sandboxed preload may not require ${name}.`);
      },
      console,
    });
    vm.runInContext(readFileSync(PRELOAD, 'utf8'), context, { filename: PRELOAD });
    return { fake, required, api: fake.exposed.get('mino') as Record<string, (...args: unknown[]) => unknown> };
  }

  it('exposes exactly the contract\'s functions as window.mino, and requires nothing but electron', () => {
    const { fake, required, api } = runPreload();
    expect([...fake.exposed.keys()]).toEqual(['mino']);
    const expected = [...Object.values(INVOKE_CHANNELS).map((spec) => spec.method), ...Object.values(EVENT_CHANNELS).map((spec) => spec.subscribe)];
    expect(Object.keys(api).sort()).toEqual(expected.sort());
    expect(Object.values(api).every((value) => typeof value === 'function')).toBe(true);
    expect(Object.isFrozen(api)).toBe(true);
    expect(new Set(required)).toEqual(new Set(['electron']));
  });

  it('sends each function\'s own channel with its one argument', async () => {
    const { fake, api } = runPreload();
    for (const [channel, spec] of Object.entries(INVOKE_CHANNELS)) {
      if (invokeArgument(channel as InvokeChannel) === 'droppedFile') continue;
      await api[spec.method]!({ probe: channel }, 'extra');
      expect(fake.invoked.at(-1)).toEqual({ channel, args: [{ probe: channel }] });
    }
  });

  it('sends a dropped folder as the path webUtils finds for the File, and no path for anything the page names itself', async () => {
    const { fake, api } = runPreload();
    const dropped = new FakeDroppedFile('/home/person/project');
    await api.openDroppedProject!(dropped, { path: '/etc' });
    expect(fake.pathLookups).toEqual([dropped]);
    expect(fake.invoked.at(-1)).toEqual({ channel: 'projects:openDropped', args: [{ path: '/home/person/project' }] });
    for (const forged of [{ path: '/etc' }, '/etc', { name: 'x', path: '/etc' }, undefined]) {
      await api.openDroppedProject!(forged);
      expect(fake.invoked.at(-1)).toEqual({ channel: 'projects:openDropped', args: [{ path: '' }] });
    }
  });

  it('gives listeners the payload alone, never the transport event, and stops when asked', () => {
    const { fake, api } = runPreload();
    for (const [channel, spec] of Object.entries(EVENT_CHANNELS)) {
      const received: unknown[][] = [];
      const stop = api[spec.subscribe]!((...args: unknown[]) => received.push(args)) as () => void;
      const transportEvent = { sender: { id: 1 }, ports: [] };
      expect(fake.deliver(`${EVENT_IPC_PREFIX}${channel}`, transportEvent, { value: channel })).toBe(1);
      expect(received).toEqual([[{ value: channel }]]);
      stop();
      expect(fake.deliver(`${EVENT_IPC_PREFIX}${channel}`, transportEvent, { value: 'late' })).toBe(0);
    }
  });
});
