// The diff view of the approval dialog and of the tool cards, against the
// real service and the mock model: line numbers, highlighting by file type,
// marked words, unified and side by side, wrapping, one scroll area, and the
// card keeping what was shown after approval and after the session is resumed.
import type { Locator, Page } from '@playwright/test';
import { ask, expect, test } from './fixtures';

/** A turn reaches its ask after a model round trip; on a busy machine that can take longer than an assertion's default. */
const DIALOG_WAIT_MS = 15_000;

const APP_TS = 'const a = 1;\nlet counter = 0;\nfunction greet(name: string) {\n  return "hi " + name;\n}\n';
const LONG_VALUE = 'wrap '.repeat(120).trim();
const EDIT = {
  path: 'app.ts',
  old_string: '  return "hi " + name;\n}\n',
  new_string: `  return "hello " + name;\n}\n++counter;\nconst long = "${LONG_VALUE}";\n`,
};

function scriptEdit(mino: { server: { enqueue(...steps: unknown[]): void } }, answer = 'Done.'): void {
  mino.server.enqueue({ calls: [{ name: 'edit_file', arguments: EDIT, call_id: 'call_edit_app' }] }, { text: answer });
}

/** The row of the diff table whose code cell holds `text`. */
function row(scope: Locator, text: string): Locator {
  return scope.locator('tr.diff-line').filter({ has: scope.page().locator('td.diff-code', { hasText: text }) });
}

async function gutters(line: Locator): Promise<string[]> {
  return (await line.locator('td.diff-gutter').allTextContents()).map((text) => text.trim());
}

/** The little of the DOM the page-side checks use (the tests compile without the DOM library). */
interface Box {
  tagName: string;
  className: string;
  scrollHeight: number;
  clientHeight: number;
  scrollWidth: number;
  clientWidth: number;
  querySelectorAll(selector: string): ArrayLike<Box>;
  ownerDocument: { defaultView: { getComputedStyle(element: Box): { overflowX: string; overflowY: string; lineHeight: string } } };
}

/** Elements inside `scope` that scroll on their own (content taller or wider than their box, with overflow auto/scroll). */
async function innerScrollAreas(scope: Locator): Promise<string[]> {
  return scope.evaluate((node) => {
    const root = node as unknown as Box;
    const found: string[] = [];
    for (const element of Array.from(root.querySelectorAll('*'))) {
      const style = root.ownerDocument.defaultView.getComputedStyle(element);
      const scrollsY = /(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
      const scrollsX = /(auto|scroll)/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1;
      if (scrollsY || scrollsX) found.push(`${element.tagName.toLowerCase()}.${element.className}`);
    }
    return found;
  });
}

async function startWith(page: Page, mino: { writeProject(files: Record<string, string>): Promise<void>; open(): Promise<void>; startSession(): Promise<string> }, files: Record<string, string>): Promise<string> {
  await mino.writeProject(files);
  await mino.open();
  const id = await mino.startSession();
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeEnabled();
  return id;
}

test('the edit dialog numbers old and new lines, highlights TypeScript, marks changed words and shows a ++ line as added', async ({ page, mino }) => {
  await startWith(page, mino, { 'app.ts': APP_TS });
  scriptEdit(mino);
  await ask(page, 'Say hello and count.');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  const diff = dialog.getByTestId('diff');
  await expect(diff).toBeVisible();
  await expect(diff).toHaveAttribute('data-language', 'typescript');
  await expect(diff).toHaveAttribute('data-coloured', 'true');

  // No patch headers: the file is named once, above the table.
  await expect(dialog).not.toContainText('Index:');
  await expect(dialog).not.toContainText('====');
  await expect(diff.getByTestId('diff-stats')).toHaveText(/app\.ts\s*\+3\s*−1/);

  // Unified: old and new line numbers side by side in two gutters.
  await expect(row(diff, 'return "hi "')).toHaveCount(1);
  expect(await gutters(row(diff, 'return "hi "'))).toEqual(['4', '']);
  expect(await gutters(row(diff, 'return "hello "'))).toEqual(['', '4']);
  expect(await gutters(row(diff, '}'))).toEqual(['5', '5']);
  // An added line that begins with ++ is an added line, not a file header.
  const plusPlus = row(diff, '++counter;');
  expect(await gutters(plusPlus)).toEqual(['', '6']);
  await expect(plusPlus.locator('td.diff-code')).toHaveClass(/diff-code-insert/);
  await expect(plusPlus.locator('td.diff-code')).toHaveText('++counter;');

  // Highlighting by the file's type: TypeScript tokens.
  await expect(row(diff, 'return "hello "').locator('.token.keyword', { hasText: 'return' })).toHaveCount(1);
  await expect(row(diff, 'return "hello "').locator('.token.string')).not.toHaveCount(0);
  // The changed word is marked within the changed lines, on both sides.
  await expect(row(diff, 'return "hello "').locator('.diff-code-edit')).toContainText(['ello']);
  await expect(row(diff, 'return "hi "').locator('.diff-code-edit')).not.toHaveCount(0);
  await dialog.getByRole('button', { name: 'Deny' }).click();
});

test('side by side is a toggle the window remembers, and a long line wraps inside the dialog', async ({ page, mino }) => {
  await startWith(page, mino, { 'app.ts': APP_TS });
  await page.setViewportSize({ width: 900, height: 700 });
  scriptEdit(mino);
  await ask(page, 'Say hello and count.');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  const diff = dialog.getByTestId('diff');
  await expect(diff.locator('table.diff-unified')).toBeVisible();

  // The long line wraps: its cell is several lines tall and nothing is wider than the dialog.
  const longCell = row(diff, 'const long').locator('td.diff-code');
  await expect(longCell).toContainText(LONG_VALUE);
  const box = await longCell.boundingBox();
  const lineHeight = await longCell.evaluate((node) => {
    const cell = node as unknown as Box;
    return parseFloat(cell.ownerDocument.defaultView.getComputedStyle(cell).lineHeight);
  });
  expect(box?.height ?? 0).toBeGreaterThan(lineHeight * 3);
  expect(await innerScrollAreas(dialog)).toEqual([]);

  await diff.getByRole('button', { name: 'Side by side' }).click();
  await expect(diff.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true');
  const split = diff.locator('table.diff-split');
  await expect(split).toBeVisible();
  // The old line and the new line are in one row, each with its own number.
  const pair = split.locator('tr.diff-line').filter({ hasText: 'return "hi "' });
  await expect(pair).toContainText('return "hello "');
  expect(await gutters(pair)).toEqual(['4', '4']);
  expect(await innerScrollAreas(dialog)).toEqual([]);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toBeHidden();
  // The turn ends with the answer scripted for it, before the next turn's answers are scripted.
  await expect(page.getByTestId('assistant-message').last()).toContainText('Done.');

  // The next diff, even after a reload, opens side by side.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Open project…' })).toBeVisible();
  const stored = await page.evaluate(() => (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem('mino.diffLayout'));
  expect(stored).toBe('split');
  await mino.startSession();
  scriptEdit(mino);
  await ask(page, 'Say hello and count.');
  const again = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(again).toBeVisible({ timeout: DIALOG_WAIT_MS });
  await expect(again.getByTestId('diff').locator('table.diff-split')).toBeVisible();
  await again.getByRole('button', { name: 'Deny' }).click();
});

test('a 300-line new file is reachable to its last line in the one scroll area of the dialog', async ({ page, mino }) => {
  await startWith(page, mino, {});
  await page.setViewportSize({ width: 800, height: 600 });
  const content = Array.from({ length: 300 }, (_, i) => `line_${i + 1} = ${i + 1}`).join('\n') + '\n';
  mino.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'numbers.py', content, mode: 'create' }, call_id: 'call_create' }] }, { text: 'Created.' });
  await ask(page, 'Make numbers.py.');
  const dialog = page.getByRole('dialog', { name: 'Approve write_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  // The preview is still the book's summary: 20 lines, then what was not shown.
  const preview = dialog.getByTestId('confirmation-preview');
  await expect(preview).toContainText('line_20 = 20');
  await expect(preview).not.toContainText('line_21 = 21');
  // The whole content follows as a diff of added lines, highlighted as Python.
  const diff = dialog.getByTestId('diff');
  await expect(diff).toHaveAttribute('data-language', 'python');
  await expect(diff.locator('td.diff-code-insert')).toHaveCount(300);
  const last = row(diff, 'line_300 = 300');
  expect(await gutters(last)).toEqual(['', '300']);
  // Nothing inside the dialog scrolls on its own: the dialog is the one scroll area.
  expect(await innerScrollAreas(dialog)).toEqual([]);
  const dialogScrolls = await dialog.evaluate((node) => (node as unknown as Box).scrollHeight > (node as unknown as Box).clientHeight);
  expect(dialogScrolls).toBe(true);
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
  await dialog.getByRole('button', { name: 'Deny' }).click();
});

test('a change too long to colour quickly is shown whole, words and numbers intact, without syntax colours', async ({ page, mino }) => {
  await startWith(page, mino, {});
  // About 48,000 characters, over the colouring limit, in 1,200 lines.
  const content = Array.from({ length: 1200 }, (_, i) => `const someLongerName${i} = "value number ${i}";`).join('\n') + '\n';
  mino.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'big.ts', content, mode: 'create' }, call_id: 'call_big' }] }, { text: 'Created.' });
  await ask(page, 'Make big.ts.');
  const dialog = page.getByRole('dialog', { name: 'Approve write_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  const diff = dialog.getByTestId('diff');
  await expect(diff.getByTestId('diff-uncoloured')).toBeVisible();
  await expect(diff).toHaveAttribute('data-coloured', 'false');
  await expect(diff.locator('td.diff-code-insert')).toHaveCount(1200);
  expect(await gutters(row(diff, 'const someLongerName1199 = "value number 1199";'))).toEqual(['', '1200']);
  await expect(diff.locator('.token')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Deny' }).click();
});

test('a card keeps its fields and diff after approval and after the session is resumed, with values shown as text', async ({ page, mino }) => {
  const id = await startWith(page, mino, { 'app.ts': APP_TS });
  scriptEdit(mino, 'Changed app.ts.');
  await ask(page, 'Say hello and count.');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  await expect(dialog.locator('[data-field="Path"] dd')).toHaveText('app.ts');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Changed app.ts.');

  const checkCard = async (card: Locator) => {
    await expect(card.getByTestId('result-status')).toHaveText('[Tool result: completed]');
    await expect(card.locator('[data-field="Path"] dd')).toHaveText('app.ts');
    await expect(card.locator('[data-field="Starting line"] dd')).toHaveText('4');
    // The value as it is, not escaped JSON inside a string.
    await expect(card.locator('[data-field="Remove"] dd')).toHaveText('  return "hi " + name;\n}\n');
    await expect(card.getByTestId('confirmation-fields')).not.toContainText('\\"');
    const diff = card.getByTestId('diff');
    await expect(row(diff, '++counter;').locator('td.diff-code')).toHaveClass(/diff-code-insert/);
    expect(await gutters(row(diff, 'return "hello "'))).toEqual(['', '4']);
  };
  const live = page.locator('[data-testid="tool-card"][data-tool="edit_file"]');
  await expect(live.getByTestId('decision-badge')).toHaveText('Approved by you');
  await checkCard(live);

  await page.close();
  const other = await mino.openSecondPage();
  mino.picker.willPick(mino.project);
  await other.getByRole('button', { name: 'Open project…' }).click();
  await other.getByTestId('session-item').filter({ hasText: id }).getByRole('button', { name: 'Resume' }).click();
  await expect(other.getByTestId('current-session-id')).toHaveText(id);
  const resumed = other.locator('[data-testid="tool-card"][data-tool="edit_file"]');
  await checkCard(resumed);
  await expect(resumed.getByTestId('decision-badge')).toHaveText('Approved by you');
});

test('a resumed read shows its arguments as text, not as escaped JSON', async ({ page, mino }) => {
  const id = await startWith(page, mino, { 'app.ts': APP_TS });
  mino.server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'app.ts' }, call_id: 'call_read_app' }] }, { text: 'Read it.' });
  await ask(page, 'Read app.ts.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Read it.');
  await page.close();
  const other = await mino.openSecondPage();
  mino.picker.willPick(mino.project);
  await other.getByRole('button', { name: 'Open project…' }).click();
  await other.getByTestId('session-item').filter({ hasText: id }).getByRole('button', { name: 'Resume' }).click();
  const card = other.locator('[data-testid="tool-card"][data-tool="read_file"]');
  await expect(card.locator('[data-field="path"] dd')).toHaveText('app.ts');
  await expect(card).not.toContainText('\\"');
});
