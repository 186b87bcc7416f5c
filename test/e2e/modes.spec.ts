// The mode control: loosening asks with the service's warning (Cancel is the
// default) and confirms with the id the service issued with it, tightening
// applies at once, and a loosened mode lets an edit run as a shown record
// instead of a dialog. A page that skips the warning cannot loosen.
import * as fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { IpcResult, MinoApi } from '../../src/shared/ipc';
import { modeHelp } from '../../src/shared/modeTable';
import type { ModeChangeResult } from '../../src/shared/sessions';
import { ask, expect, GREET_ANSWER, GREET_GO, GREET_GO_EDITED, scriptGreetTurn, test } from './fixtures';

/** What a page can send on its own, bypassing the mode control. */
function setModeFromPage(page: Page, input: { mode: string; confirmationId?: string; confirmed?: boolean }): Promise<IpcResult<ModeChangeResult>> {
  return page.evaluate((request) => (globalThis as unknown as { mino: MinoApi }).mino.setPermissionMode(request), input);
}

test.beforeEach(async ({ mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO });
  await mino.open();
  await mino.startSession();
});

test('each mode is explained, on the control and its choices, by what its row of the mode table does', async ({ page }) => {
  const mode = page.getByLabel('Permission mode');
  await expect(mode).toHaveAttribute('title', modeHelp('manual'));
  await expect(mode.locator('option[value="bypass"]')).toHaveAttribute('title', /Bash commands outside the sandbox ask you first/);
  for (const name of ['manual', 'accept-edits', 'bypass'] as const) await expect(mode.locator(`option[value="${name}"]`)).toHaveAttribute('title', modeHelp(name));
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
  await expect(editCard.getByRole('heading', { level: 3 })).toHaveText('[Tool: edit_file, allowed without confirmation in accept-edits mode]');
  await expect(editCard.locator('[data-field="Insert"] dd')).toHaveText('"hello"');
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

test('a page that claims the person confirmed, without the warning the service issued, cannot loosen the mode', async ({ page }) => {
  const mode = page.getByLabel('Permission mode');
  // The contract has no "confirmed" flag: the gate refuses the request whole.
  const result = await setModeFromPage(page, { mode: 'bypass', confirmed: true });
  expect(result).toMatchObject({ ok: false, error: expect.stringContaining('confirmed') });
  await expect(mode).toHaveValue('manual');
  // Nor can it reuse the id of a warning the person answered.
  await mode.selectOption('bypass');
  await page.getByRole('dialog', { name: 'Switch to this mode?' }).getByRole('button', { name: 'Switch to bypass' }).click();
  await expect(mode).toHaveValue('bypass');
  await mode.selectOption('manual');
  await expect(mode).toHaveValue('manual');
  const asked = await setModeFromPage(page, { mode: 'accept-edits' });
  if (!asked.ok || !asked.value.confirmationId) throw new Error('expected a warning with a confirmation id');
  const id = asked.value.confirmationId;
  expect(await setModeFromPage(page, { mode: 'accept-edits', confirmationId: id })).toMatchObject({ ok: true, value: { status: 'changed' } });
  await setModeFromPage(page, { mode: 'manual' });
  expect(await setModeFromPage(page, { mode: 'accept-edits', confirmationId: id })).toMatchObject({ ok: true, value: { status: 'error', mode: 'manual' } });
});
