import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { createNativeConfirm } from '../../../src/main/electron/dialogs';
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
