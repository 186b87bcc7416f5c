// Guards applied to every web contents the app creates: no navigation, no
// new windows, no permissions but writing to the clipboard. Not even an https: link opens from a
// window-open request (a middle click or ctrl-click makes one without any
// question): links open only through the links feature of the service, with
// the one-time id main issued when the person asked (service/features/links.ts).
import type { App, Session, WebContents } from 'electron';
import { originOf } from './ipc';

export type GuardableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

export function guardWebContents(contents: GuardableContents): void {
  // The renderer is a single page; any navigation is either a bug or an attack.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

export type PermissionSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>;

/** The one permission granted: writing text to the clipboard (a code block's Copy button). */
export const CLIPBOARD_WRITE = 'clipboard-sanitized-write';

/**
 * Camera, microphone, notifications, devices, clipboard reads...: Mino needs
 * none, so every request is refused. The single exception is clipboard writes,
 * and only from the app's own page (`allowedOrigins`) in a window's main
 * frame, never from a frame inside it.
 */
export function guardPermissions(session: PermissionSession, allowedOrigins: readonly string[]): void {
  const ownMainFrame = (origin: string | null, isMainFrame: boolean) => isMainFrame && origin !== null && allowedOrigins.includes(origin);
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permission === CLIPBOARD_WRITE && ownMainFrame(originOf(details.requestingUrl), details.isMainFrame));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    return permission === CLIPBOARD_WRITE && ownMainFrame(originOf(requestingOrigin), details.isMainFrame);
  });
  session.setDevicePermissionHandler(() => false);
}

/** Installs the guards on every web contents as it is created, including any the app did not ask for. */
export function installGuards(app: Pick<App, 'on'>, allowedOrigins: readonly string[]): void {
  app.on('web-contents-created', (_event, contents) => {
    guardWebContents(contents);
    guardPermissions(contents.session, allowedOrigins);
  });
}
