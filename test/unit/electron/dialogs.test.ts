import type { BrowserWindow, Dialog, MessageBoxOptions, OpenDialogOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { createFilePicker, createNativeConfirm } from '../../../src/main/electron/dialogs';
import { clientId } from '../../../src/main/service/clients';

const question = { title: 'Send your API key to a new host?', message: 'Use https://x.example?', detail: 'Details.', confirmLabel: 'Change base URL' };

function fakeDialog(response: number) {
  const shown: Array<{ window: unknown; options: MessageBoxOptions }> = [];
  const dialog = {
    showMessageBox: async (...args: unknown[]) => {
      const [window, options] = args.length === 2 ? args : [undefined, args[0]];
      shown.push({ window, options: options as MessageBoxOptions });
      return { response, checkboxChecked: false };
    },
  } as unknown as Pick<Dialog, 'showMessageBox'>;
  return { shown, dialog };
}

describe('the native yes/no question', () => {
  it("is a warning over the client's window with Cancel first, default and the answer to Escape", async () => {
    const window = { id: 7 } as unknown as BrowserWindow;
    const { shown, dialog } = fakeDialog(0);
    const confirm = createNativeConfirm(dialog, () => window);
    expect(await confirm(clientId('w'), question)).toBe(false);
    expect(shown).toEqual([
      {
        window,
        options: expect.objectContaining({ type: 'warning', buttons: ['Cancel', 'Change base URL'], defaultId: 0, cancelId: 0, message: question.message, detail: question.detail }),
      },
    ]);
  });

  it('says yes only for the confirm button', async () => {
    expect(await createNativeConfirm(fakeDialog(1).dialog, () => undefined)(clientId('w'), question)).toBe(true);
    expect(await createNativeConfirm(fakeDialog(2).dialog, () => undefined)(clientId('w'), question)).toBe(false);
  });
});

describe('the file picker', () => {
  const options = { title: 'Choose a case file', filters: [{ name: 'Case files', extensions: ['yaml', 'yml'] }] };

  function fakeOpenDialog(result: { canceled: boolean; filePaths: string[] }) {
    const shown: Array<{ window: unknown; options: OpenDialogOptions }> = [];
    const dialog = {
      showOpenDialog: async (...args: unknown[]) => {
        const [window, opened] = args.length === 2 ? args : [undefined, args[0]];
        shown.push({ window, options: opened as OpenDialogOptions });
        return result;
      },
    } as unknown as Pick<Dialog, 'showOpenDialog'>;
    return { shown, dialog };
  }

  it("offers one existing file of the named kinds over the client's window", async () => {
    const window = { id: 3 } as unknown as BrowserWindow;
    const { shown, dialog } = fakeOpenDialog({ canceled: false, filePaths: ['/work/cases.yaml'] });
    expect(await createFilePicker(dialog, () => window)(clientId('w'), options)).toBe('/work/cases.yaml');
    expect(shown).toEqual([{ window, options: expect.objectContaining({ title: options.title, properties: ['openFile'], filters: options.filters }) }]);
  });

  it('answers null when the person cancels', async () => {
    const { dialog } = fakeOpenDialog({ canceled: true, filePaths: [] });
    expect(await createFilePicker(dialog, () => undefined)(clientId('w'), options)).toBeNull();
  });
});
