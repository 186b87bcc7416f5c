// Writing the next message while a turn runs: Enter queues it (shown, editable,
// removable), and it is sent when the turn ends; a turn the person stopped
// holds the queue until they send the next message themselves.
import * as fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { ask, expect, test, type MinoHarness } from './fixtures';

/** A command that runs until the test creates `go` in the project. */
const WAIT_FOR_GO = 'while [ ! -e go ]; do sleep 0.05; done; echo went';

/** Starts a turn whose command waits for `go`; `then`: the model's answer after the command, if the turn gets that far. */
async function startWaitingTurn(page: Page, mino: MinoHarness, then?: string): Promise<void> {
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: WAIT_FOR_GO }, call_id: 'call_wait' }] });
  if (then !== undefined) mino.server.enqueue({ text: then });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Run the waiting command.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="bash"]')).toHaveAttribute('data-status', 'running');
}

test('Enter while a turn runs queues the message, which can be edited and removed, and goes when the turn ends', async ({ page, mino }) => {
  await startWaitingTurn(page, mino, 'The command finished.');
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await expect(page.getByTestId('composer-hint')).toContainText('Enter queues your next message');
  await box.fill('Now summarize what it printed.');
  await box.press('Enter');
  await box.fill('And this one I will take back.');
  await page.getByRole('button', { name: 'Queue', exact: true }).click();
  await expect(box).toHaveValue('');
  const queued = page.getByTestId('queued-message');
  await expect(queued).toHaveCount(2);
  await page.getByRole('button', { name: 'Remove queued message 2' }).click();
  await expect(queued).toHaveCount(1);
  await page.getByRole('textbox', { name: 'Queued message 1' }).fill('Now summarize, briefly, what it printed.');

  mino.server.enqueue({ text: 'It printed "went".' });
  await fs.writeFile(mino.projectFile('go'), '');
  await expect(page.getByTestId('user-message')).toHaveCount(2);
  await expect(page.getByTestId('user-message').last()).toContainText('Now summarize, briefly, what it printed.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('It printed "went".');
  await expect(page.getByTestId('queued-messages')).toBeHidden();
  // Each message was its own turn, sent in order: the queued one only after the first turn's answer.
  expect(mino.server.requests).toHaveLength(3);
});

test('a turn the person stopped holds the queue, saying so, until they send the next message', async ({ page, mino }) => {
  await startWaitingTurn(page, mino);
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill('Then list the files.');
  await box.press('Enter');
  await expect(page.getByTestId('queued-message')).toHaveCount(1);
  await box.press('Escape');
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  const queue = page.getByTestId('queued-messages');
  await expect(queue).toContainText('The turn was stopped, so your queued messages wait.');
  const requestsAfterStop = mino.server.requests.length;

  mino.server.enqueue({ text: 'Here are the files.' });
  await queue.getByRole('button', { name: 'Send next' }).click();
  await expect(page.getByTestId('user-message').last()).toContainText('Then list the files.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Here are the files.');
  expect(mino.server.requests).toHaveLength(requestsAfterStop + 1);
  await expect(queue).toBeHidden();
});
