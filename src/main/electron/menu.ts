// The application menu. Its commands go to the focused window as intents
// (menu:command); the page carries them out with its ordinary, validated
// requests, so the menu adds no second path into the service.
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/ipc';

export interface MenuDeps {
  appName: string;
  isMac: boolean;
  /** Sends the command to the focused Mino window, or opens a window first when there is none. */
  command(command: MenuCommand): void;
}

export function applicationMenuTemplate(deps: MenuDeps): MenuItemConstructorOptions[] {
  const settings: MenuItemConstructorOptions = { label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => deps.command('openSettings') };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Project…', accelerator: 'CmdOrCtrl+O', click: () => deps.command('openProject') },
      { label: 'New Session', accelerator: 'CmdOrCtrl+N', click: () => deps.command('newSession') },
      ...(deps.isMac ? [] : [{ type: 'separator' as const }, settings]),
      { type: 'separator' },
      deps.isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const appMenu: MenuItemConstructorOptions = {
    label: deps.appName,
    submenu: [{ role: 'about' }, { type: 'separator' }, settings, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
  };
  return [
    ...(deps.isMac ? [appMenu] : []),
    file,
    { role: 'editMenu' },
    { label: 'View', submenu: [{ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }] },
    { role: 'windowMenu' },
  ];
}
