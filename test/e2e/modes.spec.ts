// The mode control: loosening asks with the service's warning (Cancel is the
// default), tightening applies at once, and a loosened mode lets an edit run
// as a shown record instead of a dialog.
import * as fs from 'node:fs/promises';
import { ask, expect, GREET_ANSWER, GREET_GO, GREET_GO_EDITED, scriptGreetTurn, test } from './fixtures';

test.beforeEach(async ({ mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO });
  await mino.open();
  await mino.startSession();
});

test('loosening to accept-edits asks first; then the edit runs with an "allowed without confirmation" card and no dialog', async ({ page, mino }) => {
  const mode = page.getByLabel('Permission mode');
  await mode.selectOption('accept-edits');
  const confirm = page.getByRole('dialog', { name: 'Switch to this mode?' });
  await expect(confirm.getByTestId('mode-warning')).toContainText('accept-edits mode writes and edits project files without asking');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(mode).toHaveValue('manual');
  await confirm.getByRole('button', { name: 'Switch to accept-edits' }).click();
  await expect(mode).toHaveValue('accept-edits');
  await expect(page.getByTestId('window-message')).toHaveText('Permission mode for this session: accept-edits.');

  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  await expect(page.getByTestId('assistant-message').last()).toContainText(GREET_ANSWER);
  const editCard = page.locator('[data-testid="tool-card"][data-tool="edit_file"]');
  await expect(editCard.getByRole('heading')).toHaveText('[Tool: edit_file, allowed without confirmation in accept-edits mode]');
  await expect(editCard.getByTestId('confirmation-fields')).toContainText('Insert: "\\"hello\\""');
  await expect(editCard.getByTestId('result-status')).toHaveText('[Tool result: completed]');
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(GREET_GO_EDITED);
  expect(mino.asks).toEqual([]);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('cancelling the loosening (Enter on the focused Cancel) keeps manual, and the next edit still asks', async ({ page, mino }) => {
  const mode = page.getByLabel('Permission mode');
  await mode.selectOption('bypass');
  const confirm = page.getByRole('dialog', { name: 'Switch to this mode?' });
  await expect(confirm.getByTestId('mode-warning')).toContainText('bypass mode runs every call without asking');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(mode).toHaveValue('manual');
  await expect(page.getByTestId('window-message')).toContainText('unchanged: manual');

  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  await expect(page.getByRole('dialog', { name: 'Approve edit_file?' })).toBeVisible();
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText(GREET_ANSWER);
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(GREET_GO);
});

test('tightening applies at once without a question', async ({ page }) => {
  const mode = page.getByLabel('Permission mode');
  await mode.selectOption('accept-edits');
  await page.getByRole('dialog', { name: 'Switch to this mode?' }).getByRole('button', { name: 'Switch to accept-edits' }).click();
  await expect(mode).toHaveValue('accept-edits');
  await mode.selectOption('manual');
  await expect(mode).toHaveValue('manual');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('window-message')).toHaveText('Permission mode for this session: manual.');
});
