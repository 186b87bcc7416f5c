// Writing the next message while a turn runs: Enter queues it (shown, editable,
// removable), and it is sent when the turn ends; a turn the person stopped
// holds the queue until they send the next message themselves. Send now hands
// a queued message to the running turn, which delivers it before its next
// model request; the transcript shows it there, and a reopened session too.
import * as fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { seriousAxeFindings } from './axe';
import { ask, expect, test, type MinoHarness } from './fixtures';

/** The model requests the mock received (the window also asks the service for its list of models). */
function modelRequests(mino: MinoHarness) {
  return mino.server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/responses'));
}

/** A command that runs until the test creates `go` in the project. */
const WAIT_FOR_GO = 'while [ ! -e go ]; do sleep 0.05; done; echo went';

/** Starts a turn whose command waits for `go`; `then`: the model's answer after the command, if the turn gets that far. */
async function startWaitingTurn(page: Page, mino: MinoHarness, then?: string): Promise<string> {
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: WAIT_FOR_GO }, call_id: 'call_wait' }] });
  if (then !== undefined) mino.server.enqueue({ text: then });
  await mino.open();
  const id = await mino.startSession();
  await ask(page, 'Run the waiting command.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="bash"]')).toHaveAttribute('data-status', 'running');
  return id;
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
  expect(modelRequests(mino)).toHaveLength(3);
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
  const requestsAfterStop = modelRequests(mino).length;

  mino.server.enqueue({ text: 'Here are the files.' });
  await queue.getByRole('button', { name: 'Send next' }).click();
  await expect(page.getByTestId('user-message').last()).toContainText('Then list the files.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Here are the files.');
  expect(modelRequests(mino)).toHaveLength(requestsAfterStop + 1);
  await expect(queue).toBeHidden();
});

test('Send now delivers a queued message to the running turn after the command\'s result, shown there, and it stays there when the session is reopened', async ({ page, mino }) => {
  const id = await startWaitingTurn(page, mino);
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill('Print the date as well.');
  await box.press('Enter');
  await box.fill('Then tell me what you found.');
  await box.press('Enter');
  expect(await seriousAxeFindings(page), 'axe findings with Send now offered').toEqual([]);
  await page.getByRole('button', { name: 'Send now: queued message 1' }).click();
  const queued = page.getByTestId('queued-message');
  await expect(queued.first()).toHaveAttribute('data-sending', 'true');
  await expect(queued.first().getByRole('button', { name: /Remove/ })).toHaveCount(0);

  mino.server.enqueue({ text: 'It printed "went"; the date follows.' }, { text: 'I found that it went.' });
  await fs.writeFile(mino.projectFile('go'), '');
  await expect(page.getByTestId('assistant-message').first()).toContainText('the date follows');
  // Delivered inside the running turn: one question, the steered message between the command and the answer.
  await expect(page.getByTestId('steered-message')).toContainText('Print the date as well.');
  const input = modelRequests(mino)[1]!.body.input as Array<{ type: string; role?: string; content?: unknown }>;
  expect(input.at(-2)?.type).toBe('function_call_output');
  expect(input.at(-1)).toMatchObject({ type: 'message', role: 'user', content: 'Print the date as well.' });
  const order = await page.locator('[data-testid="tool-card"], [data-testid="steered-message"], [data-testid="assistant-message"]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid')));
  expect(order.slice(0, 3)).toEqual(['tool-card', 'steered-message', 'assistant-message']);

  // The other queued message still goes as the next turn, once this one ends.
  await expect(page.getByTestId('user-message')).toHaveCount(2);
  await expect(page.getByTestId('user-message').last()).toContainText('Then tell me what you found.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('I found that it went.');
  await expect(page.getByTestId('queued-messages')).toBeHidden();
  expect(modelRequests(mino)).toHaveLength(3);

  // Reopened from the log, the transcript shows it in the same place.
  await page.reload();
  await page.locator('.recent-item').first().click();
  await page.getByRole('button', { name: new RegExp(`^Resume session ${id}`) }).click();
  await expect(page.getByTestId('current-session-id')).toHaveText(id);
  await expect(page.getByTestId('steered-message')).toContainText('Print the date as well.');
  const replayed = await page.locator('[data-testid="user-message"], [data-testid="tool-card"], [data-testid="steered-message"], [data-testid="assistant-message"]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid')));
  expect(replayed).toEqual(['user-message', 'tool-card', 'steered-message', 'assistant-message', 'user-message', 'assistant-message']);
});

test('a message sent now that the turn never delivered is not lost: it goes back to the front of the queue, saying so', async ({ page, mino }) => {
  await startWaitingTurn(page, mino);
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill('Skip the tests.');
  await box.press('Enter');
  await page.getByRole('button', { name: 'Send now: queued message 1' }).click();
  await expect(page.getByTestId('queued-message')).toHaveAttribute('data-sending', 'true');
  // Stopped before its next request: the message was never delivered.
  await box.press('Escape');
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  await expect(page.getByTestId('queued-message')).not.toHaveAttribute('data-sending', 'true');
  await expect(page.getByRole('textbox', { name: 'Queued message 1' })).toHaveValue('Skip the tests.');
  await expect(page.getByTestId('queued-notice')).toContainText('was not sent during it');
  await expect(page.getByTestId('steered-message')).toHaveCount(0);
  expect(JSON.stringify(modelRequests(mino).map((request) => request.body))).not.toContain('Skip the tests.');

  mino.server.enqueue({ text: 'Skipping them.' });
  await page.getByTestId('queued-messages').getByRole('button', { name: 'Send next' }).click();
  await expect(page.getByTestId('user-message').last()).toContainText('Skip the tests.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Skipping them.');
});

