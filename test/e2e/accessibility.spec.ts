// An axe scan of every main state of the window (the file list and the
// session's panels included, wherever they show), in the light and the dark
// theme: no serious or critical finding (contrast included, as rendered).
import type { Page } from '@playwright/test';
import { startMockServiceServer } from '../support/mockServiceServer';
import { ask, expect, GREET_GO, test } from './fixtures';
import { seriousAxeFindings } from './axe';
import { RICH_ANSWER } from './richAnswer';

async function expectAccessible(page: Page, state: string) {
  const findings = await seriousAxeFindings(page);
  expect(findings, `axe findings in ${state}`).toEqual([]);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every main state passes an axe scan in the ${colorScheme} theme`, async ({ page, mino }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme });
    // A protected file, so the file list shows one marked.
    await mino.writeProject({ 'greet.go': GREET_GO, '.env': 'TOKEN=x\n' });
    mino.picker.willPick(mino.project);
    await mino.open();
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await expectAccessible(page, 'the first start screen');

    // The session picker, then the start screen with a recent project.
    await page.getByRole('button', { name: 'Open project…' }).click();
    await expect(page.getByRole('button', { name: 'New session' })).toBeVisible();
    await expectAccessible(page, 'the session picker');
    await page.reload();
    await expect(page.locator('.recent-item')).toHaveCount(1);
    await expectAccessible(page, 'the start screen with a recent project');
    await page.locator('.recent-item').click();
    await page.getByRole('button', { name: 'New session' }).click();

    // An approval with its diff.
    mino.server.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'call_read' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'call_edit' }] },
      { text: RICH_ANSWER },
    );
    await ask(page, 'Change the greeting in greet.go to "hello".');
    const approval = page.getByRole('dialog', { name: 'Approve edit_file?' });
    await expect(approval).toBeVisible();
    await expectAccessible(page, 'the approval dialog');
    await approval.getByRole('button', { name: 'Approve' }).click();

    // The transcript: cards, a table, code blocks.
    const answer = page.getByTestId('assistant-message').last();
    await expect(answer.getByRole('table')).toBeVisible();
    await expect(answer.getByTestId('code-block').first().locator('.token').first()).toBeVisible();
    await expectAccessible(page, 'a session with a transcript');

    // The mode control while main's own dialog asks about a looser mode.
    mino.native.answer = 'hold';
    await page.getByLabel('Permission mode').selectOption('accept-edits');
    await expect(page.getByLabel('Permission mode')).toBeDisabled();
    await expectAccessible(page, 'the mode control waiting for the confirmation');
    await mino.native.answerHeld(false);
    await expect(page.getByLabel('Permission mode')).toBeEnabled();
    mino.native.answer = false;

    // The Changes view, with a diff open.
    await page.getByRole('button', { name: 'Changes', exact: true }).click();
    const changes = page.getByTestId('changes-dialog');
    await expect(changes.getByTestId('changed-file')).toHaveCount(1);
    await changes.getByTestId('changed-file').first().getByText('Show diff').click();
    await expectAccessible(page, 'the changes view');
    await changes.getByRole('button', { name: 'Close', exact: true }).click();

    // A running turn: a command's live output, its elapsed time, the waiting line.
    mino.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: 'for i in $(seq 1 5); do echo "line $i"; done; sleep 3' }, call_id: 'call_count' }] },
      { text: 'It printed 5 lines.' },
    );
    await ask(page, 'Count to five.');
    await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('[data-testid="tool-card"][data-tool="bash"]').getByTestId('live-output')).toContainText('line 5');
    await expectAccessible(page, 'a running command');
    await expect(page.getByTestId('assistant-message').last()).toContainText('It printed 5 lines.');

    // The composer's @ suggestions.
    const composer = page.getByRole('textbox', { name: 'Message to Mino' });
    await composer.click();
    await page.keyboard.type('Explain @gr');
    await expect(page.getByRole('listbox', { name: 'Files to mention' }).getByRole('option')).toHaveText(['greet.go']);
    await expectAccessible(page, 'the mention suggestions');
    await page.keyboard.press('Escape');
    await composer.fill('');

    // The composer's / commands.
    await composer.fill('/');
    await expect(page.getByRole('listbox', { name: 'Commands' }).getByRole('option')).toHaveCount(9);
    await expectAccessible(page, 'the command list');
    await page.keyboard.press('Escape');
    await composer.fill('');

    // Settings.
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('dialog', { name: 'Settings' }).getByLabel('Theme', { exact: true })).toBeEnabled();
    await expectAccessible(page, 'the settings dialog');
  });
}

test.describe('a first run, without a working service', () => {
  test.use({ withModel: false });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the guided setup passes an axe scan in the ${colorScheme} theme`, async ({ page, mino }) => {
      const remote = await startMockServiceServer({ models: ['qwen3', 'llama3.2'] });
      try {
        await page.emulateMedia({ colorScheme });
        await mino.open();
        const setup = page.getByTestId('service-setup');
        await expect(setup).toContainText('Set up a model service');
        await expectAccessible(page, 'the guided setup');

        // A session before any service works: its composer points to the setup.
        await mino.startSession();
        await expect(page.getByTestId('composer-hint')).toContainText('No model service is set up yet');
        await expectAccessible(page, 'a session before a service works');

        // A failed test names what failed.
        await setup.getByLabel('1. Service').selectOption({ label: 'LM Studio' });
        await setup.getByLabel('Service URL').fill(remote.baseURL.replace(/\/v1$/, '/wrong'));
        await setup.getByRole('button', { name: '3. Save and test connection' }).click();
        await expect(setup.getByTestId('connection-result')).toContainText('does not exist on this server');
        await expectAccessible(page, 'the guided setup after a failed test');

        // A passed test lists the models to pick from.
        await setup.getByLabel('Service URL').fill(remote.baseURL);
        await setup.getByRole('button', { name: '3. Save and test connection' }).click();
        await expect(setup.getByTestId('connection-result')).toContainText('Models found: qwen3, llama3.2.');
        await expectAccessible(page, 'the guided setup with its models');
      } finally {
        await remote.close();
      }
    });
  }
});
