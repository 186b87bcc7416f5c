// A failed request is one calm card, not a crash: what failed, what was tried,
// what to do next, and Retry, which sends the same message again without a
// second copy of it in the transcript, in the session's log or in what the
// model reads. A turn that got no answer shows no usage line.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Types a question and sends it with Enter. */
async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill(text);
  await box.press('Enter');
}

/** The records of one type in the session's log. */
async function logRecords(home: string, sessionId: string, type: string): Promise<Array<Record<string, unknown>>> {
  const text = await fs.readFile(path.join(home, '.mino', 'sessions', `${sessionId}.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.type === type);
}

/** The person's messages (role user) a model request carried, as text. */
function userMessagesSent(body: { input?: Array<{ role?: string; type?: string; content?: unknown }> }): string[] {
  return (body.input ?? []).filter((item) => item.role === 'user').map((item) => JSON.stringify(item.content));
}

const SERVER_ERROR = { httpStatus: 500, body: { error: { message: 'Upstream is down.', type: 'server_error' } } };

test('a request that fails after every attempt is one card saying what failed, what was tried and what to do, with no usage line', async ({ page, mino }) => {
  mino.server.enqueue(SERVER_ERROR, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR);
  await mino.open();
  await mino.startSession();
  await ask(page, 'Summarize the notes.');
  const card = page.getByTestId('turn-failed');
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading')).toHaveText('This turn did not finish');
  await expect(card).toContainText('Upstream is down.');
  await expect(card).toContainText('Mino tried 4 times.');
  // Not "wait a moment, then send again": the four attempts did that.
  await expect(card).toContainText('It failed on every attempt');
  await expect(card).not.toContainText('Wait a moment');
  await expect(card).toContainText('Retry sends your message again');
  await expect(card.getByRole('button', { name: 'Retry' })).toBeVisible();
  // Not a crash: no red italic line, no usage of a turn that got no answer.
  await expect(page.getByTestId('turn-usage')).toHaveCount(0);
  await expect(card).not.toHaveCSS('font-style', 'italic');
  // Retry is the one way to send it again: the message is not also put back in the box to be sent twice.
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toHaveValue('');
});

test('Retry sends the same message once: one copy in the transcript, in the log and in what the model reads', async ({ page, mino }) => {
  mino.server.enqueue({ fail: 'error', message: 'The service is overloaded.', partialDeltas: ['I will ', 'start'] });
  await mino.open();
  const sessionId = await mino.startSession();
  await ask(page, 'Summarize the notes.');
  const card = page.getByTestId('turn-failed');
  await expect(card).toContainText('The service is overloaded.');

  mino.server.enqueue({ text: 'The notes are short.' });
  await card.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('The notes are short.');
  await expect(page.getByTestId('user-message')).toHaveCount(1);
  await expect(card.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  // The model read the message once: the retried request carries the one copy already in the history.
  const retried = mino.server.requests.at(-1)?.body as Parameters<typeof userMessagesSent>[0];
  expect(userMessagesSent(retried)).toHaveLength(1);
  expect(userMessagesSent(retried)[0]).toContain('Summarize the notes.');
  expect(await logRecords(mino.home, sessionId, 'user')).toHaveLength(1);

  // The session read back from its log shows it once too: test/integration/service/retry.test.ts.
});
