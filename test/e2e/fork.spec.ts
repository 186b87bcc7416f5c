// Taking the conversation back: Edit and resend on an earlier message of the
// person's offers to undo the file changes made from that message on (each
// only if still as the turn left it), then continues the session from there as
// a new session (a fork) in this window, with the edited message as its next
// turn. The original stays whole and can be opened again.
import * as fs from 'node:fs/promises';
import { sessionFile } from '../../src/main/core/sessions/ids';
import { seriousAxeFindings } from './axe';
import { ask, expect, loosenMode, test } from './fixtures';

test('Edit and resend undoes the later turns\' files, forks the session here and sends the edited message', async ({ page, mino }) => {
  await mino.writeProject({ 'greet.go': 'const greeting = "hi"\n' });
  mino.server.enqueue(
    { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'e1' }] },
    { text: 'Greeted.' },
    {
      calls: [
        { name: 'write_file', arguments: { path: 'farewell.txt', content: 'bye\n', mode: 'create' }, call_id: 'w1' },
        { name: 'write_file', arguments: { path: 'notes.md', content: 'note\n', mode: 'create' }, call_id: 'w2' },
      ],
    },
    { text: 'Added both.' },
  );
  await mino.open();
  const original = await mino.startSession();
  await loosenMode(page, mino, 'accept-edits');
  await ask(page, 'Change the greeting.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Greeted.');
  await ask(page, 'Add a farewell and a note.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Added both.');
  await expect(page.getByTestId('turn-changes-summary')).toHaveCount(2);
  // The person works on one of the files meanwhile: it must be left as it is.
  await fs.writeFile(mino.projectFile('notes.md'), 'my own note\n');
  const originalLog = await fs.readFile(sessionFile(mino.home, original));

  await page.getByTestId('user-message').nth(1).getByRole('button', { name: 'Edit and resend' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit and resend' });
  const text = dialog.getByRole('textbox', { name: 'Your message' });
  await expect(text).toHaveValue('Add a farewell and a note.');
  await expect(dialog.getByTestId('fork-files')).toHaveText(/farewell\.txt[\s\S]*notes\.md/);
  await expect(dialog.getByTestId('fork-files')).not.toContainText('greet.go');
  await expect(dialog.getByRole('checkbox', { name: /Undo these changes first/ })).toBeChecked();
  await text.fill('Add a farewell only.');
  mino.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'farewell.txt', content: 'goodbye\n', mode: 'create' }, call_id: 'w3' }] }, { text: 'Only the farewell.' });
  await dialog.getByRole('button', { name: 'Resend as a new session' }).click();

  // What was left alone is said before the session moves on.
  const report = dialog.getByTestId('reversal-report');
  await expect(report).toContainText('Undo of turn 2: 1 restored, 1 left as they are.');
  await expect(report).toContainText('notes.md: it changed after the turn, so it was left as it is');
  expect(await seriousAxeFindings(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Continue' }).click();

  // The fork is this window's session now, holding the first turn and the edited message.
  const layout = page.getByTestId('session-layout');
  await expect(layout).not.toHaveAttribute('data-session-id', original);
  // A new session starts in the safest mode, whatever the original's was: its write is asked about.
  await page.getByRole('dialog', { name: 'Approve write_file?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Only the farewell.');
  await expect(page.getByTestId('user-message')).toHaveText([/Change the greeting\./, /Add a farewell only\./]);
  const sent = mino.server.requests.map((request) => JSON.stringify(request.body?.input ?? '')).find((input) => input.includes('Add a farewell only.')) ?? '';
  expect(sent).toContain('Change the greeting.');
  expect(sent).not.toContain('Add a farewell and a note.');
  expect(await fs.readFile(mino.projectFile('farewell.txt'), 'utf8')).toBe('goodbye\n');
  expect(await fs.readFile(mino.projectFile('notes.md'), 'utf8')).toBe('my own note\n');
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe('const greeting = "hello"\n');

  // The sidebar says where it came from; the original opens again, whole.
  const fork = page.getByTestId('sidebar-item').filter({ has: page.getByTestId('current-session-id') });
  await expect(fork).toContainText('Forked from “Change the greeting.”');
  // Nothing in it was rewritten: the undo the person chose is the only thing added, after what was there.
  const now = await fs.readFile(sessionFile(mino.home, original));
  expect(now.subarray(0, originalLog.length).equals(originalLog)).toBe(true);
  const added = now.subarray(originalLog.length).toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line).type as string);
  expect(new Set(added)).toEqual(new Set(['reversal_start', 'reversal_step', 'reversal_end']));
  await page.getByTestId('sidebar-item').filter({ hasText: original }).getByTestId('sidebar-title').click();
  await expect(layout).toHaveAttribute('data-session-id', original);
  await expect(page.getByTestId('user-message')).toHaveText([/Change the greeting\./, /Add a farewell and a note\./]);
});

test('Edit and resend without undoing, from the first message, and nothing offered while a turn runs', async ({ page, mino }) => {
  mino.server.enqueue({ text: 'Hello.' });
  await mino.open();
  const original = await mino.startSession();
  await ask(page, 'Say hi.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Hello.');
  const message = page.getByTestId('user-message').first();
  await message.getByRole('button', { name: 'Edit and resend' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit and resend' });
  // Nothing changed files after it: nothing to offer.
  await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'Your message' }).fill('Say hello.');
  mino.server.enqueue({ hangAfterDeltas: ['Hel'] });
  await dialog.getByRole('button', { name: 'Resend as a new session' }).click();
  await expect(page.getByTestId('session-layout')).not.toHaveAttribute('data-session-id', original);
  await expect(page.getByTestId('user-message')).toHaveText([/Say hello\./]);
  // While the fork's turn runs, no message offers it.
  await expect(page.getByRole('button', { name: 'Edit and resend' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('button', { name: 'Edit and resend' })).toHaveCount(1);
});
