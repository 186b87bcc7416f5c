// The context window in the session window: the header meter, each turn's
// usage, Compact, the summary card the person can read and edit (and the next
// request carries the edit), and the model's reasoning as a collapsed "Thinking".
import { ask, expect, test } from './fixtures';

type Body = { input: unknown[] };

test('the meter shows used / window, Compact makes a summary card, and an edited summary is what the next request carries', async ({ page, mino }) => {
  await mino.open();
  await page.evaluate(() => (globalThis as unknown as { mino: { saveSettings(patch: object): Promise<unknown> } }).mino.saveSettings({ contextWindow: 18_000 }));
  await mino.startSession();
  const meter = page.getByTestId('context-meter');
  await expect(meter).toHaveText(/^\d+k \/ 18k$/);

  // One turn larger than the share of the window a compaction keeps, so Compact summarizes all of it, yet with the
  // tools and instructions within the window.
  mino.server.enqueue({ text: 'Listed.', usage: { input_tokens: 11_800, output_tokens: 20, cached_tokens: 4000, reasoning_tokens: 8 } });
  await ask(page, `List these: ${'word '.repeat(6000)}`);
  await expect(page.getByTestId('turn-usage')).toHaveText('12k in (4k cached) · 20 out (8 reasoning)');
  await expect(meter).toHaveText('12k / 18k');

  mino.server.enqueue({ text: 'The person asked to list words; Mino listed them.' });
  await page.getByRole('toolbar', { name: 'Session' }).getByRole('button', { name: 'Compact' }).click();
  const card = page.getByTestId('summary-card');
  await expect(card).toContainText('written by Mino');
  expect(mino.server.requests.at(-1)?.body.tools ?? []).toEqual([]);
  await expect(meter).not.toHaveText('12k / 18k');
  await expect(page.locator('[data-summarized]').filter({ has: page.getByTestId('user-message') })).toHaveCount(1);

  await card.getByRole('button', { name: 'Open summary' }).click();
  await expect(card.getByTestId('summary-text')).toHaveText('The person asked to list words; Mino listed them.');
  await card.getByRole('button', { name: 'Edit summary' }).click();
  await card.getByRole('textbox', { name: 'Summary text' }).fill('Something else.');
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByTestId('summary-text')).toHaveText('The person asked to list words; Mino listed them.');
  await card.getByRole('button', { name: 'Edit summary' }).click();
  await card.getByRole('textbox', { name: 'Summary text' }).fill('EDITED: the person wanted a word list, and got it.');
  await card.getByRole('button', { name: 'Save summary' }).click();
  const edited = page.getByTestId('summary-card').last();
  await expect(edited).toContainText('written by you');
  await expect(page.getByTestId('summary-card')).toHaveCount(2);

  const before = mino.server.requests.length;
  mino.server.enqueue({ text: 'Next.' });
  await ask(page, 'And now?');
  await expect(page.getByTestId('assistant-message').last()).toHaveText(/Next\./);
  const sent = JSON.stringify((mino.server.requests[before]!.body as Body).input);
  expect(sent).toContain('EDITED: the person wanted a word list, and got it.');
  expect(sent).not.toContain('word word');
});

test('the model’s reasoning streams into a collapsed Thinking part of the turn', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  mino.server.enqueue({ hangAfterDeltas: [], hangInReasoning: ['Checking ', 'the greeting'] });
  await ask(page, 'Change the greeting.');
  const thinking = page.getByTestId('thinking');
  await expect(thinking.locator('summary')).toHaveText('Thinking…');
  await expect(thinking).not.toHaveAttribute('open');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(thinking.locator('summary')).toHaveText('Thinking');

  mino.server.enqueue({ reasoning: { summary: 'Reading greet.go first.', encrypted_content: 'enc-1' }, text: 'Done.' });
  await ask(page, 'Try again.');
  await expect(page.getByTestId('assistant-message').last()).toHaveText(/Done\./);
  const saved = page.getByTestId('thinking').last();
  await expect(saved).not.toHaveAttribute('open');
  await saved.locator('summary').click();
  await expect(saved).toContainText('Reading greet.go first.');
});
