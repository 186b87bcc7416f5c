// Review in the approval dialog, against the real service and the mock model:
// an edit or write shown by hunk, single hunks rejected and the text rewritten
// before approving, exactly that written and told to the model; the fields
// folded under the diff, a calm warning for a routine edit, the whole dialog
// fitting at 800x600; and an ask whose file changes on disk saying so before
// the person can approve.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { ask, expect, GREET_GO, scriptGreetTurn, test, toolOutputsSent } from './fixtures';

const DIALOG_WAIT_MS = 15_000;

const LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`);
const BEFORE = LINES.join('');
// Two changes far apart: two hunks.
const PROPOSED = LINES.map((line, i) => (i === 1 ? 'line two\n' : i === 17 ? 'line eighteen\n' : line)).join('');
const FIRST_ONLY = LINES.map((line, i) => (i === 1 ? 'line two\n' : line)).join('');

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The result the model was sent for `callId`, once a request carried it. */
async function resultSent(server: { requests: Array<{ body: Parameters<typeof toolOutputsSent>[0] }> }, callId: string) {
  const find = () => server.requests.flatMap((request) => toolOutputsSent(request.body ?? {})).find((output) => output.call_id === callId);
  await expect.poll(() => find() !== undefined).toBe(true);
  return find();
}

test.beforeEach(async ({ mino, page }) => {
  await mino.writeProject({ 'greet.go': GREET_GO, 'list.txt': BEFORE });
  await mino.open();
  await mino.startSession();
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeEnabled();
});

test('rejecting one hunk writes only the others; Resulting file follows, and the model is told what was written', async ({ page, mino }) => {
  mino.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'list.txt', content: PROPOSED, mode: 'overwrite' }, call_id: 'call_write' }] }, { text: 'Done.' });
  await ask(page, 'Rename lines 2 and 18.');
  const dialog = page.getByRole('dialog', { name: 'Approve write_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  await expect(dialog.getByTestId('diff-hunk-header')).toHaveCount(2);

  await dialog.getByRole('button', { name: 'Reject hunk 2' }).click();
  await expect(dialog.getByRole('button', { name: 'Keep hunk 2' })).toHaveAttribute('aria-pressed', 'true');
  await dialog.getByTestId('review-details').locator('summary').click();
  await expect(dialog.locator('[data-field="Resulting file"] dd')).toHaveText(`${Buffer.byteLength(FIRST_ONLY)} bytes, 20 lines`);
  await expect(dialog.getByTestId('review-summary')).toContainText('Approve writes your version');

  await expect(dialog.getByRole('button', { name: 'Approve' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Done.');
  expect(await fs.readFile(mino.projectFile('list.txt'), 'utf8')).toBe(FIRST_ONLY);
  const sent = await resultSent(mino.server, 'call_write');
  expect(sent?.status).toBe('completed');
  expect(sent?.output).toContain('rejected hunk 2 (of 2 in your diff)');
  expect(sent?.output).toContain(sha256(FIRST_ONLY));
  expect(sent?.output).toContain('+line 18');
  expect(sent?.output).toContain('-line eighteen');
});

test('the person rewrites the proposed text; exactly their text is written and the model is told', async ({ page, mino }) => {
  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  await dialog.getByRole('button', { name: 'Edit text' }).click();
  const text = dialog.getByRole('textbox', { name: 'Text to write to greet.go' });
  await expect(text).toHaveValue('package main\n\nconst greeting = "hello"\n');
  const mine = 'package main\n\nconst greeting = "hey"\n';
  // Typed keys are text here: y and Enter neither approve nor deny.
  await text.fill(mine);
  await text.press('End');
  await text.press('y');
  await text.press('Backspace');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('diff').locator('.diff-code-insert')).toHaveText('const greeting = "hey"');

  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('assistant-message').last()).toBeVisible();
  await expect.poll(() => fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(mine);
  const sent = await resultSent(mino.server, 'call_edit_greet');
  expect(sent?.output).toContain('rewrote the text');
  expect(sent?.output).toContain(sha256(mine));
  expect(sent?.output).toContain('+const greeting = "hey"');
});

test('at 800x600 the edit dialog says each thing once, folds the fields under the diff, keeps the warning calm and fits', async ({ page, mino }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  await expect(dialog.getByTestId('diff')).toBeVisible();
  await expect(dialog).not.toContainText('[Tool: edit_file]');
  // The fields are there, in the seeds' order, folded under the diff.
  const details = dialog.getByTestId('review-details');
  await expect(details.locator('[data-field="Path"]')).toBeHidden();
  await details.locator('summary').click();
  await expect(details.locator('.confirmation-field dt')).toHaveText(['Path', 'Project directory', 'Starting line', 'Remove', 'Insert', 'Resulting file']);
  await details.locator('summary').click();
  const warning = dialog.getByTestId('confirmation-warning');
  await expect(warning).toHaveAttribute('data-weight', 'neutral');
  await expect(warning).not.toHaveClass(/\bwarning\b/);

  const approve = dialog.getByRole('button', { name: 'Approve' });
  await expect(approve).toBeInViewport();
  await expect(warning).toBeInViewport();
  const overflow = await dialog.evaluate((node) => {
    const element = node as unknown as { scrollHeight: number; clientHeight: number };
    return element.scrollHeight - element.clientHeight;
  });
  expect(overflow).toBeLessThanOrEqual(1);
  await page.keyboard.press('Escape');
});

test('a command with full rights keeps the strong warning', async ({ page, mino }) => {
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'true', sandbox: false }, call_id: 'call_out' }] }, { text: 'Left it.' });
  await ask(page, 'Run it outside.');
  const dialog = page.getByRole('dialog', { name: 'Approve bash?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  await expect(dialog.getByTestId('confirmation-warning')).toHaveAttribute('data-weight', 'strong');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Left it.');
});

test('an open ask whose file changes on disk says so before the person can approve, and nothing is written', async ({ page, mino }) => {
  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog).toBeVisible({ timeout: DIALOG_WAIT_MS });
  await expect(dialog.getByRole('button', { name: 'Approve' })).toBeEnabled();

  // Another window (or program) writes the file while the dialog is open.
  const theirs = 'package main\n\nconst greeting = "hi there"\n';
  await fs.writeFile(mino.projectFile('greet.go'), theirs);
  await expect(dialog.getByTestId('approval-target-changed')).toContainText('greet.go changed on disk');
  await expect(dialog.getByRole('button', { name: 'Approve' })).toBeDisabled();

  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('assistant-message').last()).toBeVisible();
  const sent = await resultSent(mino.server, 'call_edit_greet');
  expect(sent?.status).toBe('failed');
  expect(sent?.output).toContain('changed on disk while the user was reviewing');
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(theirs);
});
