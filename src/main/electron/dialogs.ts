// The native folder picker, the service's FolderPicker port in the app.
import type { BrowserWindow, Dialog } from 'electron';
import type { ClientId } from '../service/clients';
import type { FolderPicker } from '../service/ports';

export function createFolderPicker(dialog: Pick<Dialog, 'showOpenDialog'>, windowFor: (client: ClientId) => BrowserWindow | undefined): FolderPicker {
  return async (client) => {
    const options = { title: 'Open project', buttonLabel: 'Open', properties: ['openDirectory' as const] };
    const window = windowFor(client);
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0];
  };
}
