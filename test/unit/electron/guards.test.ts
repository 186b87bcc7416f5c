import type { App, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { CLIPBOARD_WRITE, guardPermissions, guardWebContents, installGuards, type PermissionSession } from '../../../src/main/electron/guards';

type Listener = (...args: unknown[]) => void;

/** Just enough of a WebContents to record what the guards register. */
function fakeContents() {
  const listeners = new Map<string, Listener[]>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return contents;
    },
    setWindowOpenHandler(handler: typeof openHandler) {
      openHandler = handler;
    },
    session: fakeSession(),
  };
  return {
    contents,
    /** Fires an event the way Electron does; true if a guard prevented it. */
    fire(event: string, url: string): boolean {
      let prevented = false;
      const handlers = listeners.get(event) ?? [];
      if (handlers.length === 0) throw new Error(`no listener for ${event}`);
      for (const handler of handlers) handler({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    },
    open(url: string) {
      if (!openHandler) throw new Error('no window open handler');
      return openHandler({ url });
    },
  };
}

function fakeSession() {
  const handlers: Record<string, (...args: never[]) => unknown> = {};
  const session = {
    handlers,
    setPermissionRequestHandler: (handler: (...args: never[]) => unknown) => (handlers.request = handler),
    setPermissionCheckHandler: (handler: (...args: never[]) => unknown) => (handlers.check = handler),
    setDevicePermissionHandler: (handler: (...args: never[]) => unknown) => (handlers.device = handler),
  };
  return session;
}

describe('web contents guards', () => {
  it('blocks every navigation and redirect', () => {
    const fake = fakeContents();
    guardWebContents(fake.contents as unknown as WebContents);
    expect(fake.fire('will-navigate', 'https://example.com/')).toBe(true);
    expect(fake.fire('will-navigate', 'app://mino/other.html')).toBe(true);
    expect(fake.fire('will-redirect', 'https://example.com/')).toBe(true);
    expect(fake.fire('will-attach-webview', 'https://example.com/')).toBe(true);
  });

  it('denies every window-open request, https: links included: links open only through the links feature', () => {
    const fake = fakeContents();
    guardWebContents(fake.contents as unknown as WebContents);
    for (const url of ['https://example.com/docs', 'http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'app://mino/index.html', 'not a url']) {
      expect(fake.open(url)).toEqual({ action: 'deny' });
    }
  });

  type RequestHandler = (wc: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string; isMainFrame: boolean }) => void;
  type CheckHandler = (wc: unknown, permission: string, origin: string, details: { isMainFrame: boolean }) => boolean;
  const own = 'app://mino';

  function ask(session: ReturnType<typeof fakeSession>, permission: string, requestingUrl: string, isMainFrame = true): boolean {
    let answer: boolean | undefined;
    (session.handlers.request as RequestHandler)({}, permission, (granted) => (answer = granted), { requestingUrl, isMainFrame });
    if (answer === undefined) throw new Error('the request handler never answered');
    return answer;
  }

  it('denies every permission request and check but clipboard writes', () => {
    const session = fakeSession();
    guardPermissions(session as unknown as PermissionSession, [own]);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'deprecated-sync-clipboard-read', 'fileSystem', 'openExternal']) {
      expect(ask(session, permission, 'app://mino/index.html')).toBe(false);
      expect((session.handlers.check as CheckHandler)({}, permission, own, { isMainFrame: true })).toBe(false);
    }
    expect((session.handlers.device as () => boolean)()).toBe(false);
  });

  it("grants clipboard writes to the app's own page in the main frame only", () => {
    const session = fakeSession();
    guardPermissions(session as unknown as PermissionSession, [own]);
    const check = session.handlers.check as CheckHandler;
    expect(ask(session, CLIPBOARD_WRITE, 'app://mino/index.html?session=abc')).toBe(true);
    expect(check({}, CLIPBOARD_WRITE, own, { isMainFrame: true })).toBe(true);
    // A frame inside the page, another origin, or no origin at all get nothing.
    expect(ask(session, CLIPBOARD_WRITE, 'app://mino/index.html', false)).toBe(false);
    expect(check({}, CLIPBOARD_WRITE, own, { isMainFrame: false })).toBe(false);
    expect(ask(session, CLIPBOARD_WRITE, 'https://example.com/')).toBe(false);
    expect(check({}, CLIPBOARD_WRITE, 'https://example.com', { isMainFrame: true })).toBe(false);
    expect(ask(session, CLIPBOARD_WRITE, '')).toBe(false);
    expect(ask(session, CLIPBOARD_WRITE, 'not a url')).toBe(false);
  });

  it("grants the dev server's origin under electron-vite dev, and nothing else", () => {
    const session = fakeSession();
    guardPermissions(session as unknown as PermissionSession, ['http://localhost:5173']);
    expect(ask(session, CLIPBOARD_WRITE, 'http://localhost:5173/')).toBe(true);
    expect(ask(session, CLIPBOARD_WRITE, 'app://mino/index.html')).toBe(false);
  });

  it('guards every web contents the app creates', () => {
    let created: ((event: unknown, contents: unknown) => void) | undefined;
    const app = { on: (event: string, listener: typeof created) => event === 'web-contents-created' && (created = listener) };
    installGuards(app as unknown as App, [own]);
    const fake = fakeContents();
    created?.({}, fake.contents);
    expect(fake.fire('will-navigate', 'https://example.com/')).toBe(true);
    expect(fake.open('https://example.com/')).toEqual({ action: 'deny' });
    expect(fake.contents.session.handlers.request).toBeTypeOf('function');
  });
});
