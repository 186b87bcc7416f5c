// The review -> undo -> redo journey in the desktop, against the real
// service, file tools and checkpoints, and the mock model.
import * as fs from 'node:fs/promises';
import { ask, expect, test } from './fixtures';

test('a person reviews a turn\'s changes, undoes the turn after a confirmation listing the files, then redoes it', async ({ page, mino }) => {
  await mino.writeProject({ 'notes.md': '# Notes\n\nold line\n', 'mine.txt': 'mine\n' });
  mino.server.enqueue(
    {
      calls: [
        { name: 'edit_file', arguments: { path: 'notes.md', old_string: 'old line', new_string: 'new line' }, call_id: 'e1' },
        { name: 'write_file', arguments: { path: 'added.txt', content: 'added\n', mode: 'create' }, call_id: 'w1' },
        { name: 'write_file', arguments: { path: 'mine.txt', content: 'theirs\n', mode: 'overwrite' }, call_id: 'w2' },
        { name: 'bash', arguments: { command: 'true', sandbox: false }, call_id: 'b1' },
      ],
    },
    { text: 'Updated the notes.' },
  );
  await mino.open();
  await mino.startSession();
  await ask(page, 'Update the notes.');
  const expected = ['edit_file', 'write_file', 'write_file', 'bash'];
  for (const [i, name] of expected.entries()) {
    // Each ask reaches the window only once the one before it was answered.
    await expect.poll(() => mino.asks.length).toBe(i + 1);
    await page.getByRole('dialog', { name: `Approve ${name}?` }).getByRole('button', { name: 'Approve' }).click();
  }
  await expect(page.getByTestId('assistant-message').last()).toContainText('Updated the notes.');
  expect(await fs.readFile(mino.projectFile('notes.md'), 'utf8')).toBe('# Notes\n\nnew line\n');
  // The turn's Changes summary in the transcript.
  const summary = page.getByTestId('turn-changes-summary');
  await expect(summary).toContainText('edited notes.md (+1 -1)');
  await expect(summary).toContainText('created added.txt (+1 -0)');
  await expect(summary).toContainText('This turn also ran 1 command (bash or MCP) whose changes were not captured, so they cannot be undone.');
  // The person changes mine.txt after the turn: undo must leave it alone.
  await fs.writeFile(mino.projectFile('mine.txt'), 'theirs, then my own edit\n');

  // Review.
  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  const view = page.getByTestId('changes-dialog');
  const turn = view.getByTestId('turn-changes');
  await expect(turn).toHaveCount(1);
  await expect(turn.getByRole('heading')).toHaveText('Turn 1: Update the notes.');
  const files = turn.getByTestId('changed-file');
  await expect(files.nth(0)).toContainText('edited notes.md (+1 -1)');
  await expect(files.nth(1)).toContainText('created added.txt (+1 -0)');
  await expect(files.nth(2)).toContainText('overwritten mine.txt (+1 -1)');
  await expect(turn).toContainText('This turn also ran 1 command (bash or MCP) whose changes were not captured, so they cannot be undone.');
  await files.nth(0).getByText('Show diff').click();
  await expect(files.nth(0).locator('.diff-code-insert')).toHaveText('new line');

  // Undo, after a confirmation listing the files; no approval dialog.
  await turn.getByRole('button', { name: 'Undo this turn' }).click();
  const confirm = page.getByTestId('reversal-confirm');
  await expect(confirm.getByTestId('reversal-files')).toHaveText(/mine\.txt[\s\S]*added\.txt[\s\S]*notes\.md/);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Undo' }).click();
  const report = view.getByTestId('reversal-report');
  await expect(report).toContainText('Undo of turn 1: 2 restored, 1 left as they are.');
  await expect(report).toContainText('mine.txt: it changed after the turn, so it was left as it is');
  await expect(report.locator('.diff-code-insert')).toHaveText('theirs, then my own edit');
  expect(await fs.readFile(mino.projectFile('notes.md'), 'utf8')).toBe('# Notes\n\nold line\n');
  await expect(fs.stat(mino.projectFile('added.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  expect(await fs.readFile(mino.projectFile('mine.txt'), 'utf8')).toBe('theirs, then my own edit\n');
  await expect(files.nth(0).getByTestId('file-state')).toHaveText('Undone');

  // The transcript's summary follows once the view is closed.
  await view.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(summary).toContainText('edited notes.md (+1 -1) (undone)');
  await expect(summary).not.toContainText('mine.txt (+1 -1) (undone)');

  // Redo.
  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  await turn.getByRole('button', { name: 'Redo this turn' }).click();
  await page.getByTestId('reversal-confirm').getByRole('button', { name: 'Redo' }).click();
  await expect(report).toContainText('Redo of turn 1: 2 restored.');
  expect(await fs.readFile(mino.projectFile('notes.md'), 'utf8')).toBe('# Notes\n\nnew line\n');
  expect(await fs.readFile(mino.projectFile('added.txt'), 'utf8')).toBe('added\n');

  // Undo and redo asked for no approval: the only asks were the turn's own.
  expect(mino.asks).toEqual(['edit_file', 'write_file', 'write_file', 'bash']);
});
