// An answer to an ask that has already ended (here, the turn was stopped while
// the answer was on its way) is not used, and the window says so. The page's
// connection to the service is routed through the test so the answer can be
// held back until the ask has ended.
import * as fs from 'node:fs/promises';
import { clientId } from '../../src/main/service/clients';
import { dispatchInvoke } from '../../src/main/service/dispatch';
import { ask, expect, GREET_GO, scriptGreetTurn, test } from './fixtures';

test('an Approve that reaches Mino after the turn was stopped is not used, and the window says nothing ran because of it', async ({ page, mino }) => {
  let holdAnswers = false;
  const held: Array<() => void> = [];
  await page.routeWebSocket(/\/mino-bridge/, (socket) => {
    const service = socket.connectToServer();
    socket.onMessage((message) => {
      const channel = typeof message === 'string' ? (JSON.parse(message) as { channel?: unknown }).channel : undefined;
      if (holdAnswers && channel === 'approvals:answer') held.push(() => service.send(message));
      else service.send(message);
    });
    service.onMessage((message) => socket.send(message));
  });
  await mino.writeProject({ 'greet.go': GREET_GO });
  await mino.open();
  await mino.startSession();

  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  const approve = dialog.getByRole('button', { name: 'Approve' });
  await expect(approve).toBeEnabled();
  holdAnswers = true;
  await approve.click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => held.length).toBe(1);

  // While the answer is on its way, the turn is stopped: the ask ends, denied, and the window is told.
  expect(await dispatchInvoke(mino.service, clientId('socket-1'), 'turn:stop', undefined)).toEqual({ ok: true, value: { stopped: true } });
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  const message = page.getByTestId('approval-message');
  await expect(message).toHaveText('A request was withdrawn without your answer: The turn was stopped, so this call was denied.');

  // Then the answer arrives: too late to count.
  held.splice(0).forEach((send) => send());
  await expect(message).toHaveText('That request had already ended, so your answer was not used. Nothing ran because of it.');
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(GREET_GO);
  await expect(page.locator('[data-testid="tool-card"][data-tool="edit_file"]').getByTestId('result-status')).toHaveText('[Tool result: denied]');
});
