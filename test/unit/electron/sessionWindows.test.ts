// The Electron adapter's session-window pieces, without launching Electron:
// the session URL, focus and titles, the approval notification, the menu.
import type { BrowserWindow, MenuItemConstructorOptions, NotificationConstructorOptions } from 'electron';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { applicationMenuTemplate } from '../../../src/main/electron/menu';
import { createApprovalNotifier } from '../../../src/main/electron/notifications';
import { TrustedWindows } from '../../../src/main/electron/trustedWindows';
import { windowTitle } from '../../../src/main/electron/windowTitle';
import { createWindowFactory, rendererUrlFor } from '../../../src/main/electron/windows';
import { clientId, type ClientId } from '../../../src/main/service/clients';
import { FakeBrowserWindow, FakeWindowConstructor } from '../../support/electron/fakeBrowserWindow';
import type { MenuCommand } from '../../../src/shared/ipc';

const SESSION = '0123456789abcdef0123456789abcdef';

function fakeWindow(id: number, focused = false) {
  const calls: string[] = [];
  const sent: Array<[string, unknown]> = [];
  const webContents = { id, isDestroyed: () => false, send: (channel: string, payload: unknown) => sent.push([channel, payload]) };
  const window = {
    webContents,
    on: () => undefined,
    isDestroyed: () => false,
    isMinimized: () => true,
    isFocused: () => focused,
    restore: () => calls.push('restore'),
    show: () => calls.push('show'),
    focus: () => calls.push('focus'),
    setTitle: (title: string) => calls.push(`title ${title}`),
  };
  return { window: window as unknown as BrowserWindow, calls, sent };
}

const host = { attachClient: () => undefined, detachClient: () => undefined };

describe('session windows', () => {
  it('loads a session window at the renderer URL with the session id in its query', () => {
    expect(rendererUrlFor('app://mino/index.html', SESSION)).toBe(`app://mino/index.html?session=${SESSION}`);
    expect(rendererUrlFor('http://localhost:5173/', SESSION)).toBe(`http://localhost:5173/?session=${SESSION}`);
    expect(rendererUrlFor('app://mino/index.html')).toBe('app://mino/index.html');

    FakeBrowserWindow.reset();
    const created: unknown[] = [];
    const createWindow = createWindowFactory({
      BrowserWindow: FakeWindowConstructor,
      preloadPath: '/p.js',
      rendererUrl: 'app://mino/index.html',
      onCreated: (window) => created.push(window),
    });
    createWindow({ sessionId: SESSION });
    expect(FakeBrowserWindow.created.map((window) => window.loaded)).toEqual([[`app://mino/index.html?session=${SESSION}`]]);
    expect(created).toHaveLength(1);
  });

  it('focuses, titles and messages the window of a client', () => {
    const windows = new TrustedWindows(host);
    const one = fakeWindow(1);
    const client = windows.track(one.window);
    expect(windows.clientOfWindow(one.window)).toBe(client);
    expect(windows.clientOfWindow(null)).toBeUndefined();
    windows.focus(client);
    windows.setTitle(client, 'Fix the build — app — Mino');
    windows.send(client, 'menu:command', { command: 'newSession' });
    expect(one.calls).toEqual(['restore', 'show', 'focus', 'title Fix the build — app — Mino']);
    expect(one.sent).toEqual([['mino-event:menu:command', { command: 'newSession' }]]);
  });

  it('titles a window by session, project and app', () => {
    const project = { path: '/work/app', name: 'app' };
    expect(windowTitle({ project: null, session: null })).toBe('Mino');
    expect(windowTitle({ project, session: null })).toBe('app — Mino');
    expect(windowTitle({ project, session: { id: SESSION, label: 'Fix the build' } })).toBe('Fix the build — app — Mino');
  });
});

describe('the approval notification', () => {
  function setup(focused: boolean, supported = true) {
    const created: FakeNotification[] = [];
    const focusedClients: ClientId[] = [];
    const attention: ClientId[] = [];
    class FakeNotification extends EventEmitter {
      shown = false;
      closed = false;
      close() {
        this.closed = true;
        this.emit('close', {});
      }
      constructor(readonly options: NotificationConstructorOptions) {
        super();
        created.push(this);
      }
      static isSupported = () => supported;
      show() {
        this.shown = true;
      }
    }
    const notifier = createApprovalNotifier({
      Notification: FakeNotification as never,
      isFocused: () => focused,
      focus: (client) => focusedClients.push(client),
      requestAttention: (client) => attention.push(client),
      describe: () => 'Fix the build — app — Mino',
    });
    return { ...notifier, created, focusedClients, attention };
  }

  it('says which session waits when its window is not focused, and clicking brings the window forward', () => {
    const { notify, created, focusedClients, pending } = setup(false);
    notify(clientId('window-1'), SESSION, 'edit_file');
    expect(created).toHaveLength(1);
    expect(created[0]?.shown).toBe(true);
    expect(created[0]?.options.body).toBe('Fix the build — app — Mino: edit_file needs your answer before the session can go on.');
    created[0]?.emit('click', {});
    expect(focusedClients).toEqual(['window-1']);
    expect(pending.size).toBe(0);
  });

  it('holds each notification until it is clicked, closed or failed, so its click handler is never collected', () => {
    const { notify, created, pending } = setup(false);
    notify(clientId('window-1'), SESSION, 'bash');
    notify(clientId('window-2'), SESSION, 'edit_file');
    notify(clientId('window-3'), SESSION, 'write_file');
    expect([...pending.values()]).toEqual(created);
    created[0]?.emit('close', {});
    expect([...pending.values()]).toEqual([created[1], created[2]]);
    created[1]?.emit('failed', {}, 'unsigned app');
    created[2]?.emit('click', {});
    expect(pending.size).toBe(0);
  });

  it("replaces a window's older notification with its newer one, so at most one per window is held", () => {
    const { notify, created, pending } = setup(false);
    notify(clientId('window-1'), SESSION, 'bash');
    notify(clientId('window-1'), SESSION, 'edit_file');
    expect(created[0]?.closed).toBe(true);
    expect(created[1]?.closed).toBe(false);
    expect([...pending.entries()]).toEqual([['window-1', created[1]]]);
  });

  it('asks for attention with the window instead when a notification fails (macOS refuses unsigned apps)', () => {
    const { notify, created, attention, focusedClients } = setup(false);
    notify(clientId('window-1'), SESSION, 'bash');
    expect(attention).toEqual([]);
    created[0]?.emit('failed', {}, 'Notification permission denied');
    expect(attention).toEqual(['window-1']);
    expect(focusedClients).toEqual([]);
  });

  it('asks for attention with the window where notifications are unsupported', () => {
    const { notify, created, attention } = setup(false, false);
    notify(clientId('window-1'), SESSION, 'bash');
    expect(created).toEqual([]);
    expect(attention).toEqual(['window-1']);
  });

  it('stays quiet when the window is focused', () => {
    const { notify, created, attention } = setup(true);
    notify(clientId('window-1'), SESSION, 'bash');
    expect(created).toEqual([]);
    expect(attention).toEqual([]);
  });
});

describe('the application menu', () => {
  function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
    return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
  }

  it.each([false, true])('offers Open Project…, New Session and Settings… as commands to the window (macOS: %s)', (isMac) => {
    const commands: MenuCommand[] = [];
    const all = items(applicationMenuTemplate({ appName: 'Mino', isMac, command: (command) => commands.push(command) }));
    for (const label of ['Open Project…', 'New Session', 'Settings…']) {
      const item = all.find((candidate) => candidate.label === label);
      (item?.click as (() => void) | undefined)?.();
    }
    expect(commands).toEqual(['openProject', 'newSession', 'openSettings']);
  });
});
