// The mode control: a loosening is confirmed by main in its own dialog (faked
// at that edge), showing the mode table's warning, while the control waits;
// Cancel keeps the mode and says so; tightening applies at once; and a
// loosened mode lets an edit run as a shown record instead of a dialog. A page
// cannot loosen by anything it sends.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { SANDBOX_TURNED_OFF } from '../../src/main/core/agent/defaultDeps';
import { MODE_WARNINGS } from '../../src/main/core/policy/modes';
import { sandboxAvailability } from '../../src/main/core/sandbox/availability';
import { PERMISSION_MODES } from '../../src/shared/domain';
import type { IpcResult, MinoApi } from '../../src/shared/ipc';
import { modeHelp } from '../../src/shared/modeTable';
import type { ModeChangeResult } from '../../src/shared/sessions';
import { ask, expect, GREET_ANSWER, GREET_GO, GREET_GO_EDITED, loosenMode, scriptGreetTurn, test } from './fixtures';

/** What a page can send on its own, bypassing the mode control. */
function setModeFromPage(page: Page, input: Record<string, unknown>): Promise<IpcResult<ModeChangeResult>> {
  return page.evaluate((request) => (globalThis as unknown as { mino: MinoApi }).mino.setPermissionMode(request as { mode: string }), input);
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
  for (const name of PERMISSION_MODES) await expect(mode.locator(`option[value="${name}"]`)).toHaveAttribute('title', modeHelp(name));
});

test('loosening to accept-edits waits for the yes in main\'s dialog; then the edit runs with an "allowed without confirmation" card and no dialog', async ({ page, mino }) => {
  const mode = page.getByLabel('Permission mode');
  mino.native.answer = 'hold';
  await mode.selectOption('accept-edits');
  const held = await mino.native.nextHeld();
  expect(held.question).toMatchObject({ message: 'Switch this session to accept-edits mode?', confirmLabel: 'Switch to accept-edits' });
  expect(held.question.detail).toContain(MODE_WARNINGS['accept-edits']);
  // The page shows no confirmation of its own: the control waits, still on the mode in force.
  await expect(mode).toBeDisabled();
  await expect(mode).toHaveValue('manual');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  held.answer(true);
  await expect(mode).toHaveValue('accept-edits');
  await expect(mode).toBeEnabled();
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

test('auto runs a sandboxed command with an "allowed without confirmation" card and no dialog; with the sandbox off it is refused with the reason', async ({ page, mino }) => {
  test.skip(!(await sandboxAvailability()).available, 'auto needs the bash sandbox, which this machine does not have');
  await loosenMode(page, mino, 'auto');
  expect(mino.native.questions.at(-1)?.detail).toContain(MODE_WARNINGS.auto);
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'echo hi > a.txt' }, call_id: 'auto_bash' }] }, { text: 'Wrote a.txt.' });
  await ask(page, 'Write hi to a.txt.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Wrote a.txt.');
  const card = page.locator('[data-testid="tool-card"][data-tool="bash"]');
  await expect(card.getByRole('heading', { level: 3 })).toHaveText('[Tool: bash, allowed without confirmation in auto mode]');
  await expect(card.getByTestId('result-status')).toHaveText('[Tool result: completed]');
  expect(await fs.readFile(mino.projectFile('a.txt'), 'utf8')).toBe('hi\n');
  expect(mino.asks).toEqual([]);

  const mode = page.getByLabel('Permission mode');
  await mode.selectOption('manual');
  await expect(mode).toHaveValue('manual');
  await fs.writeFile(path.join(mino.home, '.mino', 'config.json'), '{ "bashSandbox": false }\n');
  const asked = mino.native.questions.length;
  await mode.selectOption('auto');
  await expect(page.getByTestId('window-error')).toHaveText(
    `auto mode runs Bash commands without asking only in the sandbox, and no sandbox is available: ${SANDBOX_TURNED_OFF}. Permission mode for this session unchanged: manual.`,
  );
  await expect(mode).toHaveValue('manual');
  expect(mino.native.questions).toHaveLength(asked);
});

test('Cancel in main\'s dialog keeps manual and says so, and the next edit still asks', async ({ page, mino }) => {
  const mode = page.getByLabel('Permission mode');
  await mode.selectOption('bypass');
  await expect(page.getByTestId('window-message')).toHaveText('You did not confirm bypass mode. Permission mode for this session unchanged: manual.');
  expect(mino.native.questions.map((question) => question.detail)).toEqual([expect.stringContaining(MODE_WARNINGS.bypass)]);
  await expect(mode).toHaveValue('manual');
  await expect(mode).toBeEnabled();

  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  await expect(page.getByRole('dialog', { name: 'Approve edit_file?' })).toBeVisible();
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText(GREET_ANSWER);
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(GREET_GO);
});

test('tightening applies at once without a question', async ({ page, mino }) => {
  await loosenMode(page, mino, 'accept-edits');
  const mode = page.getByLabel('Permission mode');
  await mode.selectOption('manual');
  await expect(mode).toHaveValue('manual');
  await expect(page.getByTestId('window-message')).toHaveText('Permission mode for this session: manual.');
  expect(mino.native.questions).toHaveLength(1);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a page that sends whatever it likes cannot loosen the mode without the yes in main\'s dialog', async ({ page, mino }) => {
  const mode = page.getByLabel('Permission mode');
  // Neither a claim that the person confirmed, nor the confirmation id of the old two-step contract, is in the contract.
  for (const forged of [
    { mode: 'bypass', confirmed: true },
    { mode: 'bypass', confirmationId: '7d3c8d9e-0000-4000-8000-000000000000' },
    { mode: 'bypass', warning: MODE_WARNINGS.bypass, accepted: true },
  ]) {
    expect(await setModeFromPage(page, forged)).toMatchObject({ ok: false, error: expect.stringContaining('unknown field') });
  }
  expect(mino.native.questions).toEqual([]);
  // Asking is all a page can do: main puts the question to the person, whose Cancel stands.
  expect(await setModeFromPage(page, { mode: 'bypass' })).toEqual({
    ok: true,
    value: { status: 'unchanged', mode: 'manual', message: 'You did not confirm bypass mode. Permission mode for this session unchanged: manual.' },
  });
  expect(mino.native.questions).toHaveLength(1);
  await expect(mode).toHaveValue('manual');
  const view = await page.evaluate(() => (globalThis as unknown as { mino: MinoApi }).mino.getCurrentSession());
  expect(view).toMatchObject({ ok: true, value: { mode: 'manual' } });
});
