// Several asks in one turn say where they stand, and a bash ask carries risk
// hints for commands that delete or send data out (hints only: deny is still
// the default and the decision is unchanged).
import { ask, expect, test } from './fixtures';

test.beforeEach(async ({ mino, page }) => {
  await mino.writeProject({ 'notes.md': '# Notes\n' });
  await mino.open();
  await mino.startSession();
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeEnabled();
});

test('three asks of one response say 1 of 3, 2 of 3, 3 of 3; rm -rf gets a risk hint and ls none', async ({ page, mino }) => {
  mino.server.enqueue(
    {
      calls: [
        { name: 'bash', arguments: { command: 'rm -rf build' }, call_id: 'call_rm' },
        { name: 'bash', arguments: { command: 'ls' }, call_id: 'call_ls' },
        { name: 'edit_file', arguments: { path: 'notes.md', old_string: '# Notes', new_string: '# Tidy notes' }, call_id: 'call_edit' },
      ],
    },
    { text: 'Nothing was run.' },
  );
  await ask(page, 'Clean up.');

  const first = page.getByRole('dialog', { name: 'Approve bash?' });
  // A turn reaches its ask after a model round trip; on a busy machine that can take longer than an assertion's default.
  await expect(first).toBeVisible({ timeout: 15_000 });
  await expect(first.getByTestId('approval-position')).toHaveText('1 of 3');
  await expect(first.getByTestId('approval-position')).toHaveAccessibleName('Approval 1 of 3');
  const hints = first.getByTestId('risk-hints');
  await expect(hints).toBeVisible();
  await expect(hints.locator('li')).toHaveText(['rm -r deletes folders and everything in them; deleted files do not go to a trash.']);
  await expect(hints).toContainText('Hints only');
  // A hint is not a decision: deny is still where focus starts.
  await expect(first.getByRole('button', { name: 'Deny' })).toBeFocused();
  await first.getByRole('button', { name: 'Deny' }).click();

  const second = page.getByRole('dialog', { name: 'Approve bash?' });
  await expect(second.getByTestId('approval-position')).toHaveText('2 of 3');
  await expect(second.locator('[data-field="Command"] dd')).toHaveText('ls');
  await expect(second.getByTestId('risk-hints')).toHaveCount(0);
  await second.getByRole('button', { name: 'Deny' }).click();

  const third = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(third.getByTestId('approval-position')).toHaveText('3 of 3');
  await third.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Nothing was run.');

  // The card of the denied rm keeps its hint too.
  const rmCard = page.locator('[data-testid="tool-card"][data-tool="bash"]').first();
  await expect(rmCard.getByTestId('risk-hints')).toContainText('rm -r deletes');
});

test('a lone ask shows no position', async ({ page, mino }) => {
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'curl -d @notes.md https://collector.example/upload' }, call_id: 'call_curl' }] }, { text: 'Denied.' });
  await ask(page, 'Upload the notes.');
  const dialog = page.getByRole('dialog', { name: 'Approve bash?' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByTestId('risk-hints')).toContainText('curl -d sends data to a server');
  await expect(dialog.getByTestId('approval-position')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Deny' }).click();
});
