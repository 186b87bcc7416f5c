// The Decisions panel against the real service: the calls of a turn, as the
// ledger recorded them, newest first with what decided each (a rule, the
// mode, the person); the filters and the search narrow it; Revoke removes the
// rule an entry names. A large ledger is shown a page at a time, and says how
// much of it is shown.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ledgerFile } from '../../src/main/core/rules/ledger';
import type { LedgerEntry } from '../../src/shared/ledger';
import { seriousAxeFindings } from './axe';
import { ask, expect, test, type MinoHarness } from './fixtures';

/** Adds a rule in Settings › Rules, saying yes in main's dialog; returns its id. */
async function addRule(page: Page, mino: MinoHarness, text: string): Promise<string> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const section = settings.getByTestId('rules-section');
  mino.native.answer = true;
  await section.getByLabel('New rule').fill(text);
  await section.getByRole('button', { name: 'Add rule' }).click();
  await expect(section.getByTestId('rule-outcome')).toContainText(`"${text}"`);
  mino.native.answer = false;
  const id = (await section.getByTestId('rule').last().getAttribute('data-rule-id')) ?? '';
  await settings.getByRole('button', { name: 'Close settings' }).click();
  return id;
}

/** Each shown entry as "tool | target | decision | decided by", read in one step so a re-render cannot split it. */
function rowsOf(panel: Locator): Promise<string[]> {
  return panel.getByTestId('ledger-entry').evaluateAll((rows) =>
    rows.map((row) =>
      Array.from((row as unknown as { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> }).querySelectorAll('td'))
        .slice(2)
        .map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim())
        .join(' | '),
    ),
  );
}

test('the panel lists a turn\'s decisions with what decided each; filters and search narrow it; Revoke removes the rule', async ({ page, mino }) => {
  await mino.writeProject({ 'notes.md': '# Notes\n' });
  await mino.open();
  const first = await mino.startSession();
  const rule = await addRule(page, mino, 'allow bash echo');

  mino.server.enqueue(
    { calls: [{ name: 'read_file', arguments: { path: 'notes.md' }, call_id: 'call_read' }] },
    { calls: [{ name: 'bash', arguments: { command: 'echo hi' }, call_id: 'call_echo' }] },
    { calls: [{ name: 'bash', arguments: { command: 'ls' }, call_id: 'call_ls' }] },
    { text: 'Listed nothing.' },
  );
  await ask(page, 'Look around.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Listed nothing.');

  // A second session of the same project, in another window, so the session filter has something to tell apart.
  const other = await mino.openSecondPage();
  await mino.startSession(other);
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'echo bye' }, call_id: 'call_bye' }] }, { text: 'Said bye.' });
  await ask(other, 'Say bye.');
  await expect(other.getByTestId('assistant-message').last()).toContainText('Said bye.');

  const opener = page.getByRole('button', { name: 'Decisions…' });
  await opener.click();
  const panel = page.getByRole('dialog', { name: 'Decisions' });
  await expect(panel.getByRole('button', { name: 'Close' })).toBeFocused();
  const byRule = `by rule ${rule} "allow bash echo"`;
  await expect.poll(() => rowsOf(panel)).toEqual([
    `bash | echo bye | allowed | ${byRule} Revoke ${rule}`,
    'bash | ls | denied | declined by you',
    'bash | ls | asked | by manual mode',
    `bash | echo hi | allowed | ${byRule} Revoke ${rule}`,
    'read_file | notes.md | allowed | by manual mode',
  ]);
  await expect(panel.getByTestId('ledger-count')).toHaveText('5 decisions, newest first.');
  expect(await seriousAxeFindings(page)).toEqual([]);

  await panel.getByLabel('Decision', { exact: true }).selectOption('deny');
  await expect.poll(() => rowsOf(panel)).toEqual(['bash | ls | denied | declined by you']);
  await expect(panel.getByTestId('ledger-count')).toHaveText('1 decision match (of 5 decisions in this project), newest first.');
  await panel.getByLabel('Decision', { exact: true }).selectOption('');
  await panel.getByLabel('Tool', { exact: true }).selectOption('read_file');
  await expect.poll(() => rowsOf(panel)).toEqual(['read_file | notes.md | allowed | by manual mode']);
  await panel.getByLabel('Tool', { exact: true }).selectOption('');
  await panel.getByLabel('Session', { exact: true }).selectOption(first);
  await expect(panel.getByTestId('ledger-entry')).toHaveCount(4);
  await expect(panel.getByTestId('ledger-entry').filter({ hasText: 'echo bye' })).toHaveCount(0);
  await panel.getByLabel('Session', { exact: true }).selectOption('');
  await panel.getByLabel('Search', { exact: true }).fill('BYE');
  await expect.poll(() => rowsOf(panel)).toEqual([`bash | echo bye | allowed | ${byRule} Revoke ${rule}`]);
  await panel.getByLabel('Search', { exact: true }).fill('');
  await expect(panel.getByTestId('ledger-entry')).toHaveCount(5);

  // Revoking an allow rule tightens: no question in main's dialog.
  const asked = mino.native.questions.length;
  await panel.getByRole('button', { name: `Revoke ${rule}` }).first().click();
  await expect(panel.getByTestId('rule-outcome')).toHaveText(`Removed ${rule} "allow bash echo".`);
  await expect(panel.getByRole('button', { name: `Revoke ${rule}` })).toHaveCount(0);
  await expect(panel.getByText(`(${rule} removed)`)).toHaveCount(2);
  expect(mino.native.questions).toHaveLength(asked);

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Settings' }).getByTestId('rules-empty')).toBeVisible();
});

/** A ledger of `count` allowed echo calls, oldest first, and one damaged line. */
async function writeLedger(mino: MinoHarness, session: string, count: number): Promise<void> {
  const lines = Array.from({ length: count }, (_, i): LedgerEntry => {
    const n = String(i).padStart(4, '0');
    return {
      at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
      session,
      call_id: `call_${n}`,
      tool: 'bash',
      target: `echo item-${n}.`,
      decision: 'allow',
      by: { kind: 'mode', mode: 'bypass' },
    };
  }).map((entry) => JSON.stringify(entry));
  lines.splice(3, 0, '{"cut": ');
  const file = ledgerFile(mino.home, mino.project);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await fs.writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}

test('a large ledger is shown a page at a time, says how much is shown, reports a damaged line, and the search reaches an old entry', async ({ page, mino }) => {
  await mino.open();
  const session = await mino.startSession();
  await writeLedger(mino, session, 1200);

  await page.getByRole('button', { name: 'Decisions…' }).click();
  const panel = page.getByRole('dialog', { name: 'Decisions' });
  await expect(panel.getByTestId('ledger-entry')).toHaveCount(100);
  await expect(panel.getByTestId('ledger-entry').first()).toContainText('echo item-1199.');
  await expect(panel.getByTestId('ledger-count')).toHaveText(
    'Showing 100 of 1,200 decisions, newest first. Only the newest 500 are loaded: narrow the filters or the search to find older ones.',
  );
  await expect(panel.getByTestId('ledger-problems')).toContainText('line 4: not a ledger entry; skipped.');

  await panel.getByRole('button', { name: 'Show 100 more' }).click();
  await expect(panel.getByTestId('ledger-entry')).toHaveCount(200);
  await expect(panel.getByTestId('ledger-count')).toContainText('Showing 200 of 1,200 decisions');

  await panel.getByLabel('Search', { exact: true }).fill('item-0007.');
  await expect(panel.getByTestId('ledger-entry')).toHaveCount(1);
  await expect(panel.getByTestId('ledger-entry')).toContainText('by bypass mode');
  await expect(panel.getByTestId('ledger-count')).toHaveText('1 decision match (of 1,200 decisions in this project), newest first.');
});

test('Show decisions… in Settings › Rules opens the panel over Settings; Escape closes the panel only and gives focus back', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const show = settings.getByRole('button', { name: 'Show decisions…' });
  await show.click();
  const panel = page.getByRole('dialog', { name: 'Decisions' });
  await expect(panel.getByTestId('ledger-count')).toHaveText('No decisions yet: each tool call the model makes in this project is recorded here.');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(settings).toBeVisible();
  await expect(show).toBeFocused();
});
