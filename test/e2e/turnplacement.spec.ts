// A turn's Changes summary stays with its own turn: while a later turn runs,
// the earlier turn's summary is drawn above the later question, never below
// the running turn's cards.
import type { Locator, Page } from '@playwright/test';
import { expect, loosenMode, test } from './fixtures';

/** Types a question and sends it (the Send button by its exact name: a message's own buttons may say more). */
async function ask(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/**
 * Where the elements' tops are in the window, read in one go: the transcript follows the running turn, so tops read
 * one after another may each come from a different scroll position.
 */
async function tops(page: Page, ...locators: Locator[]): Promise<number[]> {
  const elements = await Promise.all(locators.map((locator) => locator.elementHandle()));
  return page.evaluate((shown) => shown.map((element) => element!.getBoundingClientRect().top), elements);
}

test('while turn 2 runs, turn 1\'s Changes summary sits between turn 1 and turn 2', async ({ page, mino }) => {
  mino.server.enqueue(
    { calls: [{ name: 'write_file', arguments: { path: 'greet.ts', content: 'export const hi = 1;\n', mode: 'create' }, call_id: 'w1' }] },
    { text: 'Wrote greet.ts.' },
    // Turn 2: a command, then an answer that never finishes, so the turn is still running while the test looks.
    { calls: [{ name: 'bash', arguments: { command: 'echo running', sandbox: false }, call_id: 'b1' }] },
    { hangAfterDeltas: ['Still ', 'working'] },
  );
  await mino.open();
  await mino.startSession();
  await loosenMode(page, mino, 'bypass');
  await ask(page, 'Write greet.ts.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Wrote greet.ts.');
  const summary = page.getByTestId('turn-changes-summary').filter({ hasText: 'created greet.ts' });
  await expect(summary).toBeVisible();

  await ask(page, 'Now run something.');
  // A command outside the sandbox is asked about in every mode.
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Still working');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  const questions = page.getByTestId('user-message');
  await expect(questions).toHaveCount(2);
  await expect(summary).toHaveCount(1);
  const [first, second, changes] = await tops(page, questions.nth(0), questions.nth(1), summary);
  expect(changes).toBeGreaterThan(first);
  expect(changes).toBeLessThan(second);

  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  const [afterStop, secondAfterStop] = await tops(page, summary, questions.nth(1));
  expect(afterStop).toBeLessThan(secondAfterStop);
});
