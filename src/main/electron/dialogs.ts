// Native dialogs: the folder and file pickers (the service's FolderPicker and FilePicker ports) and the
// yes/no question main asks itself (its NativeConfirm port), which no page can answer.
import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import type { ClientId } from '../service/clients';
import type { FilePicker, FolderPicker, NativeConfirm } from '../service/ports';

/**
 * `startFolder` is where the dialog opens: the last project, when there is one
 * (otherwise the system picks, which since Electron 43 is ~/Downloads).
 */
export function createFolderPicker(
  dialog: Pick<Dialog, 'showOpenDialog'>,
  windowFor: (client: ClientId) => BrowserWindow | undefined,
  startFolder: () => Promise<string | undefined> = async () => undefined,
): FolderPicker {
  return async (client) => {
    const defaultPath = await startFolder();
    const options = { title: 'Open project', buttonLabel: 'Open', properties: ['openDirectory' as const], ...(defaultPath ? { defaultPath } : {}) };
    const window = windowFor(client);
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0];
  };
}

/** One existing file, of the kinds the caller names. */
export function createFilePicker(dialog: Pick<Dialog, 'showOpenDialog'>, windowFor: (client: ClientId) => BrowserWindow | undefined): FilePicker {
  return async (client, { title, filters }) => {
    const options = { title, buttonLabel: 'Choose', properties: ['openFile' as const], filters };
    const window = windowFor(client);
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0];
  };
}

/** Cancel is the default and what Escape or closing the box answers; only the confirm button says yes. */
export function createNativeConfirm(dialog: Pick<Dialog, 'showMessageBox'>, windowFor: (client: ClientId) => BrowserWindow | undefined): NativeConfirm {
  return async (client, question) => {
    const options: MessageBoxOptions = {
      type: 'warning',
      title: question.title,
      message: question.message,
      detail: question.detail,
      buttons: ['Cancel', question.confirmLabel],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    };
    const window = windowFor(client);
    const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
    return response === 1;
  };
}
