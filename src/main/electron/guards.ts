// Guards applied to every web contents the app creates: no navigation, no
// new windows, no permissions, and external links only as parsed https: URLs
// handed to the system browser.
import type { App, Session, Shell, WebContents } from 'electron';

/** The URL if it parses and is https:, else null. */
export function parseHttpsUrl(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export type ExternalOpener = Pick<Shell, 'openExternal'>;

/** Opens https: links in the system browser and nothing else; true if it did. */
export function openExternalIfSafe(raw: string, shell: ExternalOpener): boolean {
  const url = parseHttpsUrl(raw);
  if (!url) return false;
  void shell.openExternal(url.href).catch(() => undefined);
  return true;
}

export type GuardableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

export function guardWebContents(contents: GuardableContents, shell: ExternalOpener): void {
  // The renderer is a single page; any navigation is either a bug or an attack.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfSafe(url, shell);
    return { action: 'deny' };
  });
}

export type PermissionSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>;

/** Camera, microphone, notifications, devices...: Mino needs none, so every request is refused. */
export function denyAllPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** Installs the guards on every web contents as it is created, including any the app did not ask for. */
export function installGuards(app: Pick<App, 'on'>, shell: ExternalOpener): void {
  app.on('web-contents-created', (_event, contents) => {
    guardWebContents(contents, shell);
    denyAllPermissions(contents.session);
  });
}
