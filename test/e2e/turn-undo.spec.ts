// Undo where the change is: a turn's Changes card undoes the whole turn or one
// file's change, after the same confirmation as the Changes view, and reports
// what it left alone; a turn that changed nothing reviewable has no card; the
// Changes view is wide enough for a side-by-side diff.
import * as fs from 'node:fs/promises';
import { seriousAxeFindings } from './axe';
import { ask, expect, loosenMode, test } from './fixtures';

test('the Changes card undoes its turn in place, never clobbering a file changed since, and undoes one file', async ({ page, mino }) => {
  await mino.writeProject({ 'notes.md': '# Notes\n\nold line\n', 'mine.txt': 'mine\n', 'todo.md': 'one\n' });
  mino.server.enqueue(
    {
      calls: [
        { name: 'edit_file', arguments: { path: 'notes.md', old_string: 'old line', new_string: 'new line' }, call_id: 'e1' },
        { name: 'write_file', arguments: { path: 'mine.txt', content: 'theirs\n', mode: 'overwrite' }, call_id: 'w1' },
      ],
    },
    { text: 'Updated the notes.' },
    { calls: [
      { name: 'write_file', arguments: { path: 'todo.md', content: 'two\n', mode: 'overwrite' }, call_id: 'w2' },
      { name: 'write_file', arguments: { path: 'later.md', content: 'later\n', mode: 'create' }, call_id: 'w3' },
    ] },
    { text: 'Updated the list.' },
  );
  await mino.open();
  await mino.startSession();
  await loosenMode(page, mino, 'accept-edits');
  await ask(page, 'Update the notes.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Updated the notes.');
  const card = page.getByTestId('turn-changes-summary');
  await expect(card).toContainText('edited notes.md (+1 -1)');
  // Undo is here, not two steps away.
  await expect(card).not.toContainText('from Changes in the toolbar');
  await fs.writeFile(mino.projectFile('mine.txt'), 'theirs, then my own edit\n');

  await card.getByRole('button', { name: 'Undo turn' }).click();
  const confirm = page.getByTestId('reversal-confirm');
  await expect(confirm.getByTestId('reversal-files')).toHaveText(/mine\.txt[\s\S]*notes\.md/);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Undo' }).click();
  const report = card.getByTestId('reversal-report');
  await expect(report).toContainText('Undo of turn 1: 1 restored, 1 left as they are.');
  await expect(report).toContainText('mine.txt: it changed after the turn, so it was left as it is');
  expect(await fs.readFile(mino.projectFile('notes.md'), 'utf8')).toBe('# Notes\n\nold line\n');
  expect(await fs.readFile(mino.projectFile('mine.txt'), 'utf8')).toBe('theirs, then my own edit\n');
  await expect(card).toContainText('edited notes.md (+1 -1) (undone)');
  expect(await seriousAxeFindings(page)).toEqual([]);

  // One file of a turn, on its own.
  await ask(page, 'Update the list.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Updated the list.');
  const second = page.getByTestId('turn-changes-summary').last();
  await expect(second).toContainText('created later.md');
  await second.getByRole('button', { name: 'Undo the change to later.md' }).click();
  await expect(page.getByTestId('reversal-confirm').getByTestId('reversal-files')).toHaveText('later.md');
  await page.getByTestId('reversal-confirm').getByRole('button', { name: 'Undo' }).click();
  await expect(second.getByTestId('reversal-report')).toContainText('Undo of turn 2: 1 restored.');
  await expect(fs.stat(mino.projectFile('later.md'))).rejects.toMatchObject({ code: 'ENOENT' });
  expect(await fs.readFile(mino.projectFile('todo.md'), 'utf8')).toBe('two\n');
  await expect(second).toContainText('created later.md (+1 -0) (undone)');
  await expect(second).not.toContainText('overwritten todo.md (+1 -1) (undone)');
});

test('a turn that only ran a command whose changes cannot be known shows no Changes card', async ({ page, mino }) => {
  await mino.writeProject({ 'notes.md': 'one\n' });
  mino.server.enqueue(
    { calls: [{ name: 'bash', arguments: { command: 'true', sandbox: false }, call_id: 'b1' }] },
    { text: 'Ran it.' },
    { calls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'two\n', mode: 'overwrite' }, call_id: 'w1' }] },
    { text: 'Wrote it.' },
  );
  await mino.open();
  await mino.startSession();
  await ask(page, 'Run it.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Ran it.');
  await ask(page, 'Write it.');
  await page.getByRole('dialog', { name: 'Approve write_file?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Wrote it.');
  // The second turn's card is there, so the changes were read after both turns: the first has none.
  await expect(page.getByTestId('turn-changes-summary').last()).toContainText('overwritten notes.md');
  await expect(page.getByTestId('turn-changes-summary')).toHaveCount(1);
});

test('the Changes view is wide enough at 1280 for a side-by-side diff', async ({ page, mino }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await mino.writeProject({ 'wide.ts': `export const line = 'start ${'a'.repeat(24)}';\n` });
  mino.server.enqueue(
    { calls: [{ name: 'edit_file', arguments: { path: 'wide.ts', old_string: 'start', new_string: 'begin' }, call_id: 'e1' }] },
    { text: 'Edited.' },
  );
  await mino.open();
  await mino.startSession();
  await loosenMode(page, mino, 'accept-edits');
  await ask(page, 'Edit it.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Edited.');
  await page.getByRole('button', { name: 'Changes', exact: true }).click();
  const view = page.getByTestId('changes-dialog');
  const file = view.getByTestId('changed-file');
  await file.getByText('Show diff').click();
  await file.getByRole('button', { name: 'Side by side' }).click();
  await expect(file.getByTestId('diff')).toHaveAttribute('data-layout', 'split');
  const dialogBox = (await view.boundingBox())!;
  expect(dialogBox.width).toBeGreaterThanOrEqual(1000);
  // Each side of the diff has room for a line of code (it wrapped at about 330 px in a 560 px dialog): not wrapped.
  const cell = file.locator('.diff-code-insert').first();
  const cellBox = (await cell.boundingBox())!;
  expect(cellBox.width).toBeGreaterThanOrEqual(420);
  const lineHeight = await cell.evaluate((element) => parseFloat((globalThis as unknown as { getComputedStyle(e: unknown): { lineHeight: string } }).getComputedStyle(element).lineHeight) || 20);
  expect(cellBox.height).toBeLessThan(lineHeight * 2);
});
