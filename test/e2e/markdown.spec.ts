// Markdown in answers: GFM tables, highlighted code blocks with a Copy
// button, and headings that stay smaller than the window's own.
import type { Locator, Page } from '@playwright/test';
import { ask, expect, test } from './fixtures';
import { RICH_ANSWER, RICH_CODE } from './richAnswer';

// The page's globals, for code that runs in it (the tests are compiled without the DOM's types).
type PageGlobals = { getComputedStyle(element: unknown): { fontSize: string; color: string }; navigator: { clipboard: { readText(): Promise<string> } } };
const style = (locator: Locator) => locator.evaluate((el) => {
  const { fontSize, color } = (globalThis as unknown as PageGlobals).getComputedStyle(el);
  return { fontSize, color };
});
const fontSize = async (locator: Locator) => parseFloat((await style(locator)).fontSize);
const clipboardText = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText());

test('a GFM table renders as a table, with its header, cells and alignment; task lists and strikethrough too', async ({ page, mino }) => {
  mino.server.enqueue({ text: RICH_ANSWER });
  await mino.open();
  await mino.startSession();
  await ask(page, 'What did you change?');
  const answer = page.getByTestId('assistant-message').last();
  const table = answer.getByRole('table');
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['File', 'Change', 'Lines']);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1).getByRole('cell')).toHaveText(['greet.ts', 'new greet function', '3']);
  await expect(table.getByRole('cell', { name: '3', exact: true })).toHaveCSS('text-align', 'right');
  await expect(answer.locator('del')).toHaveText('old');
  await expect(answer.getByRole('checkbox', { name: 'Done', exact: true })).toBeChecked();
  await expect(answer.getByRole('checkbox', { name: 'Not done' })).not.toBeChecked();
  await expect(answer.getByRole('checkbox').first()).toBeDisabled();
});

test('a code block is highlighted by its language and its Copy button copies exactly the code, then says Copied', async ({ page, mino, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  mino.server.enqueue({ text: RICH_ANSWER });
  await mino.open();
  await mino.startSession();
  await ask(page, 'What did you change?');
  const block = page.getByTestId('assistant-message').last().getByTestId('code-block').first();
  await expect(block).toContainText('ts');
  const code = block.locator('pre code');
  await expect(code).toHaveText(RICH_CODE);
  await expect(code.locator('span.token.keyword').first()).toHaveText('export');
  await expect(code.locator('span.token.comment')).toHaveText('// the new greeting');
  await expect(code.locator('span.token.string').first()).toBeVisible();
  // A token is drawn in its own colour, not the text's.
  expect((await style(code.locator('span.token.keyword').first())).color).not.toBe((await style(code)).color);

  await block.getByRole('button', { name: 'Copy ts' }).click();
  await expect(block.getByRole('button', { name: 'Copied' })).toHaveText('Copied');
  expect(await clipboardText(page)).toBe(RICH_CODE);
  // The label goes back, so a second copy can be seen to work too.
  await expect(block.getByRole('button', { name: 'Copy ts' })).toHaveText('Copy', { timeout: 5_000 });

  // The second block (sh) copies its own code.
  await page.getByTestId('code-block').nth(1).getByRole('button', { name: 'Copy sh' }).click();
  await expect.poll(() => clipboardText(page)).toBe('npm test -- greet');
});

test("an answer's headings are smaller than the window's titles, and keep their order of size", async ({ page, mino }) => {
  mino.server.enqueue({ text: RICH_ANSWER });
  await mino.open();
  const startTitle = await fontSize(page.getByRole('heading', { level: 1 }).first());
  await mino.startSession();
  await ask(page, 'What did you change?');
  const answer = page.getByTestId('assistant-message').last();
  const h1 = await fontSize(answer.getByRole('heading', { level: 1, name: 'Summary' }));
  const h2 = await fontSize(answer.getByRole('heading', { level: 2, name: 'Files' }));
  const h3 = await fontSize(answer.getByRole('heading', { level: 3, name: 'Next steps' }));
  const body = await fontSize(answer.getByText('Run it with:'));

  await page.getByRole('button', { name: 'Settings' }).click();
  const dialogTitle = await fontSize(page.getByRole('dialog', { name: 'Settings' }).getByRole('heading', { name: 'Settings' }));

  expect(h1).toBeLessThan(dialogTitle);
  expect(h1).toBeLessThan(startTitle);
  expect(h1).toBeGreaterThan(h2);
  expect(h2).toBeGreaterThan(h3);
  expect(h3).toBeGreaterThanOrEqual(body);
});
