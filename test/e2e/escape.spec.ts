// Escape stops the running turn in every phase of it, and wherever the
// keyboard is: while the answer streams, while the request waits to be sent
// again, while a command runs, and after Send was clicked with the mouse
// (the keyboard then is on no text box). Each waits for the phase to be shown,
// then presses Escape once; the turn must end as stopped, long before anything
// it was waiting for would have ended it.
import type { Page } from '@playwright/test';
import { expect, test, type MinoHarness } from './fixtures';

const box = (page: Page) => page.getByRole('textbox', { name: 'Message to Mino' });

async function sendWithEnter(page: Page, text: string): Promise<void> {
  await box(page).fill(text);
  await box(page).press('Enter');
}

/** The model requests the service received (not a list of models, say). */
function modelRequests(mino: MinoHarness): unknown[] {
  return mino.server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/responses'));
}

async function expectStopped(page: Page, mino: MinoHarness): Promise<void> {
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  // Nothing was left to answer: the model got no request after the stop.
  expect(mino.server.pending()).toBe(0);
}

test('Escape in the message box stops a streaming answer', async ({ page, mino }) => {
  mino.server.enqueue({ hangAfterDeltas: ['Reading ', 'the files'] });
  await mino.open();
  await mino.startSession();
  await sendWithEnter(page, 'Explain the project.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Reading the files');
  await expect(box(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expectStopped(page, mino);
});

test('Escape stops the turn after Send was clicked with the mouse, when the keyboard is on no text box', async ({ page, mino }) => {
  mino.server.enqueue({ hangAfterDeltas: ['Reading ', 'the files'] });
  await mino.open();
  await mino.startSession();
  await box(page).fill('Explain the project.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Reading the files');
  await expect(box(page)).not.toBeFocused();
  await page.keyboard.press('Escape');
  await expectStopped(page, mino);
});

test('Escape stops the turn while a failed request waits to be sent again', async ({ page, mino }) => {
  // The service asks for 30 s before the next attempt: a stop that waited for it would miss the expect's 15 s.
  mino.server.enqueue({ httpStatus: 429, body: { error: { message: 'Slow down.', type: 'rate_limit' } }, headers: { 'retry-after': '30' } }, { text: 'Never sent.' });
  await mino.open();
  await mino.startSession();
  await sendWithEnter(page, 'Explain the project.');
  await expect(page.getByTestId('transcript')).toContainText('attempt 2 of');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  expect(modelRequests(mino)).toHaveLength(1);
});

test('Escape stops the turn while a command runs', async ({ page, mino }) => {
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'echo started; while [ ! -e go ]; do sleep 0.05; done; echo finished > done.txt', sandbox: false }, call_id: 'call_wait' }] }, { text: 'Never sent.' });
  await mino.open();
  await mino.startSession();
  await sendWithEnter(page, 'Run the check.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('live-output').last()).toContainText('started');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  expect(modelRequests(mino)).toHaveLength(1);
});
