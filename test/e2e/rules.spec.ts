// Settings › Rules and the ask dialog's "Always allow", against the real
// service: a rule that allows is saved only after the yes in main's own
// dialog (faked at that edge), which shows the rule; a deny rule needs none;
// a bad rule is refused with why; and "Always allow" shows the exact rule
// before it is pressed, keeps the ask open while main asks, and stays open
// (Approve still works) when the person cancels there.
import * as fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { RULE_GRAMMAR } from '../../src/main/core/rules/ruleGrammar';
import { rulesFilePath } from '../../src/main/core/rules/rulesFile';
import { seriousAxeFindings } from './axe';
import { ask, expect, test, type MinoHarness } from './fixtures';

async function openRules(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.getByTestId('rules-section');
  await expect(section).toBeVisible();
  return { dialog, section };
}

async function addRule(page: Page, text: string, scope: 'This project' | 'All projects' = 'This project') {
  const { section } = await openRulesIfClosed(page);
  await section.getByLabel('New rule').fill(text);
  await section.getByRole('radio', { name: scope }).check();
  await section.getByRole('button', { name: 'Add rule' }).click();
  return section;
}

async function openRulesIfClosed(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  if (await dialog.isVisible()) return { dialog, section: dialog.getByTestId('rules-section') };
  return openRules(page);
}

/** The rules listed in the section, as "id text" lines. */
function listed(section: ReturnType<Page['getByTestId']>) {
  return section.getByTestId('rule').locator('.rule-text');
}

/** The model asks to run `command` in bash, then answers `answer`. */
function scriptBash(mino: MinoHarness, command: string, callId: string, answer: string) {
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command }, call_id: callId }] }, { text: answer });
}

test.describe('Settings › Rules', () => {
  test.beforeEach(async ({ mino }) => {
    await mino.open();
    await mino.startSession();
  });

  test('an allow rule is saved only after the yes in main\'s dialog, which shows it; No saves nothing and says so', async ({ page, mino }) => {
    const { section } = await openRules(page);
    await expect(section.getByTestId('rules-empty')).toBeVisible();
    await expect(section.getByLabel('New rule')).toHaveAttribute('placeholder', RULE_GRAMMAR[0]);
    await expect(section.getByRole('list', { name: 'Forms of a rule' })).toContainText('allow|ask|deny bash PREFIX...');

    mino.native.answer = false;
    await addRule(page, 'allow bash npm test');
    await expect(section.getByTestId('rule-outcome')).toHaveText('You did not confirm the rule "allow bash npm test", so nothing was saved.');
    expect(mino.native.questions.at(-1)?.message).toContain('allow bash npm test');
    await expect(section.getByTestId('rule')).toHaveCount(0);
    // The text stays, to try again.
    await expect(section.getByLabel('New rule')).toHaveValue('allow bash npm test');

    mino.native.answer = true;
    await section.getByRole('button', { name: 'Add rule' }).click();
    await expect(section.getByTestId('rule-outcome')).toHaveText(/^Saved r\d+ "allow bash npm test" for this project\.$/);
    expect(mino.native.questions).toHaveLength(2);
    expect(mino.native.questions[1].message).toBe(`Always allow in ${mino.project}: allow bash npm test`);
    await expect(listed(section)).toHaveText(['allow bash npm test']);
    await expect(section.getByTestId('rule')).toContainText('This project');
    await expect(section.getByLabel('New rule')).toHaveValue('');
    const stored = JSON.parse(await fs.readFile(rulesFilePath(mino.home), 'utf8')) as unknown;
    expect(JSON.stringify(stored)).toContain('allow bash npm test');
  });

  test('a deny rule is saved at once, without a question; a bad rule is refused with why; removing asks only when it loosens', async ({ page, mino }) => {
    const { section } = await openRules(page);
    await addRule(page, 'deny bash git push', 'All projects');
    await expect(section.getByTestId('rule-outcome')).toHaveText(/^Saved r\d+ "deny bash git push" for every project\.$/);
    expect(mino.native.questions).toHaveLength(0);
    await expect(section.getByTestId('rule')).toContainText('All projects');

    await addRule(page, 'allow bash');
    const refusal = section.getByTestId('rule-outcome');
    await expect(refusal).toHaveAttribute('data-status', 'error');
    await expect(refusal).toHaveAttribute('role', 'alert');
    await expect(refusal).toContainText('Nothing was saved.');
    await addRule(page, 'permit everything');
    await expect(refusal).toContainText('"permit" is not a kind of rule');
    expect(mino.native.questions).toHaveLength(0);
    await expect(listed(section)).toHaveText(['deny bash git push']);

    // Removing a deny rule lets more run: main asks; No keeps it.
    const id = (await section.getByTestId('rule').getAttribute('data-rule-id')) ?? '';
    mino.native.answer = false;
    await section.getByRole('button', { name: `Remove ${id}` }).click();
    await expect(section.getByTestId('rule-outcome')).toHaveText(`You did not confirm the removal of ${id}, so nothing was saved.`);
    expect(mino.native.questions.at(-1)?.message).toContain('deny bash git push');
    await expect(listed(section)).toHaveText(['deny bash git push']);
    mino.native.answer = true;
    await section.getByRole('button', { name: `Remove ${id}` }).click();
    await expect(section.getByTestId('rule-outcome')).toHaveText(`Removed ${id} "deny bash git push".`);
    await expect(section.getByTestId('rule')).toHaveCount(0);

    // Removing an allow rule tightens: no question.
    await addRule(page, 'allow bash ls');
    await expect(listed(section)).toHaveText(['allow bash ls']);
    const asked = mino.native.questions.length;
    const allowId = (await section.getByTestId('rule').getAttribute('data-rule-id')) ?? '';
    await section.getByRole('button', { name: `Remove ${allowId}` }).click();
    await expect(section.getByTestId('rule-outcome')).toHaveText(`Removed ${allowId} "allow bash ls".`);
    expect(mino.native.questions).toHaveLength(asked);
  });

  test('a rules file that cannot be read is shown at the top of the section', async ({ page, mino }) => {
    await fs.writeFile(rulesFilePath(mino.home), '{ not json', { mode: 0o600 });
    const { section } = await openRules(page);
    const problem = section.getByTestId('rules-problem');
    await expect(problem).toHaveAttribute('role', 'alert');
    await expect(problem).toContainText('every tool call is refused');
    await expect(problem).toContainText(rulesFilePath(mino.home));
  });

  test('the section passes an axe scan, with a rule listed and an outcome shown', async ({ page, mino }) => {
    mino.native.answer = true;
    const { section } = await openRules(page);
    await addRule(page, 'allow bash npm test');
    await expect(section.getByTestId('rule')).toHaveCount(1);
    await section.scrollIntoViewIfNeeded();
    expect(await seriousAxeFindings(page)).toEqual([]);
  });
});

test('without a project, a rule can only be for all projects and the decisions cannot be shown', async ({ page, mino }) => {
  await mino.open();
  const { section } = await openRules(page);
  await expect(section.getByRole('radio', { name: 'This project' })).toBeDisabled();
  await expect(section.getByRole('radio', { name: 'All projects' })).toBeChecked();
  await expect(section.getByRole('button', { name: 'Show decisions…' })).toBeDisabled();
  await expect(section).toContainText('Open a project to see its decisions.');
});

test.describe('Always allow in the ask dialog', () => {
  test.beforeEach(async ({ mino, page }) => {
    await mino.open();
    await mino.startSession();
    await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeEnabled();
  });

  test('shows the rule before it is pressed; yes in main\'s dialog runs the call, saves the rule, and the next such call runs without asking', async ({ page, mino }) => {
    scriptBash(mino, 'echo hi', 'call_echo', 'It printed hi.');
    await ask(page, 'Say hi.');
    const dialog = page.getByRole('dialog', { name: 'Approve bash?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('always-allow-rule')).toContainText('Always allow saves the rule allow bash echo hi for this project');
    await expect(dialog.getByTestId('always-allow-rule').locator('code')).toHaveText('allow bash echo hi');
    // Deny is still where focus starts.
    await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();

    mino.native.answer = 'hold';
    const always = dialog.getByRole('button', { name: 'Always allow' });
    await expect(always).toBeEnabled();
    await always.click();
    const held = await mino.native.nextHeld();
    expect(held.question.message).toBe('Approve this call and save the rule: allow bash echo hi');
    // While main asks, the ask stays, and no other yes can be given.
    await expect(dialog.getByTestId('always-allow-status')).toHaveText("Confirm or cancel saving the rule in Mino's own dialog.");
    await expect(dialog.getByRole('button', { name: 'Approve' })).toBeDisabled();
    await expect(always).toBeDisabled();
    held.answer(true);

    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('approval-message')).toHaveText(/^Saved r\d+ "allow bash echo hi" for this project\.$/);
    const card = page.locator('[data-testid="tool-card"][data-tool="bash"]');
    await expect(card.getByTestId('result-status')).toHaveText('[Tool result: completed]');
    await expect(page.getByTestId('assistant-message').last()).toContainText('It printed hi.');
    expect(mino.asks).toEqual(['bash']);

    const { dialog: settings, section } = await openRules(page);
    await expect(listed(section)).toHaveText(['allow bash echo hi']);
    const id = (await section.getByTestId('rule').getAttribute('data-rule-id')) ?? '';
    await settings.getByRole('button', { name: 'Close settings' }).click();

    // The rule now decides: the same command runs with no dialog, its card naming the rule.
    scriptBash(mino, 'echo hi', 'call_echo_again', 'Printed hi again.');
    await ask(page, 'Say hi again.');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Printed hi again.');
    await expect(card.last().getByRole('heading', { level: 3 })).toHaveText(`[Tool: bash, allowed by rule ${id} "allow bash echo hi"]`);
    expect(mino.asks).toEqual(['bash']);
  });

  test('Cancel in main\'s dialog keeps the ask open and says the rule was not saved; Approve then runs the call once', async ({ page, mino }) => {
    scriptBash(mino, 'echo hi', 'call_echo', 'It printed hi.');
    await ask(page, 'Say hi.');
    const dialog = page.getByRole('dialog', { name: 'Approve bash?' });
    mino.native.answer = false;
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    await expect(dialog.getByTestId('always-allow-status')).toHaveText(
      'You did not confirm the rule "allow bash echo hi", so nothing was saved. Approve this call once, or deny it.',
    );
    await expect(dialog).toBeVisible();
    expect(mino.native.questions).toHaveLength(1);

    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('[data-testid="tool-card"][data-tool="bash"]').getByTestId('result-status')).toHaveText('[Tool result: completed]');
    await expect(page.getByTestId('assistant-message').last()).toContainText('It printed hi.');
    const { section } = await openRules(page);
    await expect(section.getByTestId('rules-empty')).toBeVisible();
  });

  test('Enter denies even with Always allow focused, and a Space that follows another key quickly never saves a rule', async ({ page, mino }) => {
    scriptBash(mino, 'echo hi', 'call_echo', 'Not run.');
    await ask(page, 'Say hi.');
    const dialog = page.getByRole('dialog', { name: 'Approve bash?' });
    const always = dialog.getByRole('button', { name: 'Always allow' });
    await expect(always).toBeEnabled();
    await always.focus();
    // A Space that is part of typing (another key just before it) does not count.
    await page.keyboard.press('a');
    await page.keyboard.press(' ');
    await expect(dialog.getByTestId('approval-hint')).toContainText('That key did not approve');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.locator('[data-testid="tool-card"][data-tool="bash"]').getByTestId('result-status')).toHaveText('[Tool result: denied]');
    expect(mino.native.questions).toHaveLength(0);
    const { section } = await openRules(page);
    await expect(section.getByTestId('rules-empty')).toBeVisible();
  });

  test('an ask that offers no rule (an edit) has no Always allow', async ({ page, mino }) => {
    await mino.writeProject({ 'notes.md': '# Notes\n' });
    mino.server.enqueue(
      { calls: [{ name: 'edit_file', arguments: { path: 'notes.md', old_string: '# Notes', new_string: '# Tidy' }, call_id: 'call_edit' }] },
      { text: 'Left as it was.' },
    );
    await ask(page, 'Tidy notes.md.');
    const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
    await expect(dialog.getByRole('button', { name: 'Approve' })).toBeEnabled();
    await expect(dialog.getByRole('button', { name: 'Always allow' })).toHaveCount(0);
    await expect(dialog.getByTestId('always-allow-rule')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Deny' }).click();
  });

  test('the dialog with Always allow, and while main asks, passes an axe scan', async ({ page, mino }) => {
    scriptBash(mino, 'echo hi', 'call_echo', 'Done.');
    await ask(page, 'Say hi.');
    const dialog = page.getByRole('dialog', { name: 'Approve bash?' });
    await expect(dialog.getByRole('button', { name: 'Always allow' })).toBeEnabled();
    expect(await seriousAxeFindings(page)).toEqual([]);
    mino.native.answer = 'hold';
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    const held = await mino.native.nextHeld();
    await expect(dialog.getByTestId('always-allow-status')).toBeVisible();
    expect(await seriousAxeFindings(page)).toEqual([]);
    held.answer(false);
    await expect(dialog.getByTestId('always-allow-status')).toContainText('You did not confirm');
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByTestId('assistant-message').last()).toContainText('Done.');
  });
});
