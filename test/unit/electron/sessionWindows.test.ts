// The Electron adapter's session-window pieces, without launching Electron:
// the session URL, focus and titles, the approval notification, the menu.
import type { BrowserWindow, BrowserWindowConstructorOptions, MenuItemConstructorOptions, NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { applicationMenuTemplate } from '../../../src/main/electron/menu';
import { createApprovalNotifier } from '../../../src/main/electron/notifications';
import { TrustedWindows } from '../../../src/main/electron/trustedWindows';
import { windowTitle } from '../../../src/main/electron/windowTitle';
import { createWindowFactory, rendererUrlFor } from '../../../src/main/electron/windows';
import { clientId, type ClientId } from '../../../src/main/service/clients';
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

    const loaded: string[] = [];
    class FakeWindow {
      constructor(readonly options: BrowserWindowConstructorOptions) {}
      once() {}
      loadURL(url: string) {
        loaded.push(url);
        return Promise.resolve();
      }
    }
    const created: unknown[] = [];
    const createWindow = createWindowFactory({
      BrowserWindow: FakeWindow as unknown as new (options: BrowserWindowConstructorOptions) => BrowserWindow,
      preloadPath: '/p.js',
      rendererUrl: 'app://mino/index.html',
      onCreated: (window) => created.push(window),
    });
    createWindow({ sessionId: SESSION });
    expect(loaded).toEqual([`app://mino/index.html?session=${SESSION}`]);
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
    const shown: Array<NotificationConstructorOptions & { click?: () => void }> = [];
    const focusedClients: ClientId[] = [];
    class FakeNotification {
      private click?: () => void;
      constructor(readonly options: NotificationConstructorOptions) {}
      static isSupported = () => supported;
      on(event: string, listener: () => void) {
        if (event === 'click') this.click = listener;
        return this;
      }
      show() {
        shown.push({ ...this.options, click: this.click });
      }
    }
    const notify = createApprovalNotifier({
      Notification: FakeNotification as never,
      isFocused: () => focused,
      focus: (client) => focusedClients.push(client),
      describe: () => 'Fix the build — app — Mino',
    });
    return { notify, shown, focusedClients };
  }

  it('says which session waits when its window is not focused, and clicking brings the window forward', () => {
    const { notify, shown, focusedClients } = setup(false);
    notify(clientId('window-1'), SESSION, 'edit_file');
    expect(shown).toHaveLength(1);
    expect(shown[0]?.body).toBe('Fix the build — app — Mino: edit_file needs your answer before the session can go on.');
    shown[0]?.click?.();
    expect(focusedClients).toEqual(['window-1']);
  });

  it('stays quiet when the window is focused or notifications are unsupported', () => {
    const focused = setup(true);
    focused.notify(clientId('window-1'), SESSION, 'bash');
    expect(focused.shown).toEqual([]);
    const unsupported = setup(false, false);
    unsupported.notify(clientId('window-1'), SESSION, 'bash');
    expect(unsupported.shown).toEqual([]);
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
