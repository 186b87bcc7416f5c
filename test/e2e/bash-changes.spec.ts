// What a sandboxed command changed, in the desktop's Changes view: a deleted
// file, a binary file and a file changed in place, each with what the view
// can show of it, undone by Undo this change like an edit.
import * as fs from 'node:fs/promises';
import { sandboxAvailability } from '../../src/main/core/sandbox/availability';
import { ask, expect, test } from './fixtures';

test('a sandboxed command\'s changes are listed, shown and undone in the Changes view', async ({ page, mino }) => {
  const availability = await sandboxAvailability();
  test.skip(!availability.available, `no sandbox on this machine: ${availability.available ? '' : availability.reason}`);
  await mino.writeProject({ 'gone.txt': 'gone\n', 'notes.md': 'one\n' });
  mino.server.enqueue(
    { calls: [{ name: 'bash', arguments: { command: "rm gone.txt && echo two >> notes.md && printf '\\x00\\x01' > data.bin" }, call_id: 'b1' }] },
    { text: 'Done.' },
  );
  await mino.open();
  await mino.startSession();
  await ask(page, 'Change things.');
  await expect.poll(() => mino.asks.length).toBe(1);
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Done.');
  const summary = page.getByTestId('turn-changes-summary');
  await expect(summary).toContainText('deleted gone.txt');
  await expect(summary).toContainText('changed notes.md (+1 -0)');
  await expect(summary).not.toContainText('not captured');

  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  const view = page.getByTestId('changes-dialog');
  const files = view.getByTestId('turn-changes').getByTestId('changed-file');
  const binary = files.filter({ hasText: 'data.bin' });
  await expect(binary).toContainText('created data.bin');
  await binary.getByText('Show diff').click();
  await expect(binary).toContainText('Binary file, not shown: nothing before, 2 bytes after.');

  await files.filter({ hasText: 'gone.txt' }).getByRole('button', { name: 'Undo this change' }).click();
  await page.getByTestId('reversal-confirm').getByRole('button', { name: 'Undo' }).click();
  await expect(view.getByTestId('reversal-report')).toContainText('Undo of turn 1: 3 restored.');
  expect(await fs.readFile(mino.projectFile('gone.txt'), 'utf8')).toBe('gone\n');
  expect(await fs.readFile(mino.projectFile('notes.md'), 'utf8')).toBe('one\n');
});
