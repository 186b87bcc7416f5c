// Guards applied to every web contents the app creates: no navigation, no
// new windows, no permissions. Not even an https: link opens from a
// window-open request (a middle click or ctrl-click makes one without any
// question): links open only through the links feature of the service, with
// the one-time id main issued when the person asked (service/features/links.ts).
import type { App, Session, WebContents } from 'electron';

export type GuardableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

export function guardWebContents(contents: GuardableContents): void {
  // The renderer is a single page; any navigation is either a bug or an attack.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

export type PermissionSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>;

/** Camera, microphone, notifications, devices...: Mino needs none, so every request is refused. */
export function denyAllPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** Installs the guards on every web contents as it is created, including any the app did not ask for. */
export function installGuards(app: Pick<App, 'on'>): void {
  app.on('web-contents-created', (_event, contents) => {
    guardWebContents(contents);
    denyAllPermissions(contents.session);
  });
}
