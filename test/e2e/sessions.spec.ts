// Sessions in their windows: two at once with their own modes and asks, Stop,
// unknown results to acknowledge, resume, clear, and a session that lives in
// another window.
import * as fs from 'node:fs/promises';
import { planTemporaryFile } from '../../src/main/core/fs/atomicWrite';
import type { ProjectPath } from '../../src/main/core/fs/projectPath';
import { SessionLog } from '../../src/main/core/sessions/sessionLog';
import type { MockStep } from '../support/mockResponsesServer';
import { ask, expect, GREET_ANSWER, GREET_GO, GREET_GO_EDITED, loosenMode, scriptGreetTurn, test } from './fixtures';

const FAREWELL_GO = 'package main\n\nconst farewell = "bye"\n';

test('two session windows at once keep their own modes and their own asks', async ({ page, mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO, 'farewell.go': FAREWELL_GO });
  // Both windows talk to one mock model; each request is answered from its own window's script.
  const scripts: Record<'greet' | 'farewell', MockStep[]> = {
    greet: [
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'call_greet' }] },
      { text: GREET_ANSWER },
    ],
    farewell: [
      { calls: [{ name: 'edit_file', arguments: { path: 'farewell.go', old_string: '"bye"', new_string: '"goodbye"' }, call_id: 'call_farewell' }] },
      { text: 'Changed farewell.' },
    ],
  };
  const route = (body: { input?: unknown }): MockStep => {
    const which = JSON.stringify(body.input).includes('farewell.go') ? 'farewell' : 'greet';
    const step = scripts[which].shift();
    if (!step) throw new Error(`No step left for the ${which} window.`);
    return step;
  };
  mino.server.enqueue(route, route, route, route);

  await mino.open();
  const first = await mino.startSession(page);
  const second = await mino.openSecondPage();
  const secondId = await mino.startSession(second);
  expect(secondId).not.toBe(first);
  await loosenMode(page, mino, 'accept-edits');
  await expect(second.getByLabel('Permission mode')).toHaveValue('manual');

  await ask(second, 'Change the farewell in farewell.go to "goodbye".');
  const secondDialog = second.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(secondDialog).toBeVisible();
  await expect(secondDialog.locator('[data-field="Path"] dd')).toHaveText('farewell.go');

  // While the second window waits for its answer, the first runs its edit under its own mode, without a dialog.
  await ask(page, 'Change the greeting in greet.go to "hello".');
  await expect(page.getByTestId('assistant-message').last()).toContainText(GREET_ANSWER);
  await expect(page.locator('[data-testid="tool-card"][data-tool="edit_file"]').getByRole('heading', { level: 3 })).toHaveText(
    '[Tool: edit_file, allowed without confirmation in accept-edits mode]',
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(GREET_GO_EDITED);
  expect(await fs.readFile(mino.projectFile('farewell.go'), 'utf8')).toBe(FAREWELL_GO);

  await secondDialog.getByRole('button', { name: 'Approve' }).click();
  await expect(second.getByTestId('assistant-message').last()).toContainText('Changed farewell.');
  expect(await fs.readFile(mino.projectFile('farewell.go'), 'utf8')).toBe('package main\n\nconst farewell = "goodbye"\n');
  expect(mino.asks).toEqual(['edit_file']);
  await expect(page.getByLabel('Permission mode')).toHaveValue('accept-edits');
  await expect(second.getByLabel('Permission mode')).toHaveValue('manual');
  await expect(page.getByTestId('current-session-id')).toHaveText(first);
  await expect(second.getByTestId('current-session-id')).toHaveText(secondId);
});

test('Stop ends a streaming turn cleanly: the partial answer stays, the turn says it was stopped, and the next question can be sent', async ({ page, mino }) => {
  mino.server.enqueue({ hangAfterDeltas: ['Let me think ', 'about the greeting'] });
  await mino.open();
  await mino.startSession();
  await ask(page, 'What does greet.go say?');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Let me think about the greeting');
  const stop = page.getByRole('button', { name: 'Stop' });
  await stop.click();
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  await expect(stop).toBeHidden();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Let me think about the greeting');

  mino.server.enqueue({ text: 'It sets greeting to "hi".' });
  await ask(page, 'Try again.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('It sets greeting to "hi".');
});

test('an unknown result from a crash must be acknowledged before the next question', async ({ page, mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO });
  const args = JSON.stringify({ path: 'greet.go', old_string: '"hi"', new_string: '"hello"' });
  const log = await SessionLog.create(mino.home, mino.project);
  await log.append({ type: 'user', text: 'Change the greeting in greet.go to "hello".' });
  await log.append({ type: 'response', responseId: 'resp_crashed', output: [{ type: 'function_call', call_id: 'call_crashed', name: 'edit_file', arguments: args }] });
  await log.append({ type: 'tool_start', call_id: 'call_crashed', name: 'edit_file', arguments: args });
  await log.close();

  mino.picker.willPick(mino.project);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  const item = page.getByTestId('session-item').filter({ hasText: 'Change the greeting in greet.go' });
  await expect(item).toContainText(log.id);
  await item.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('current-session-id')).toHaveText(log.id);

  const unknown = page.getByTestId('unknown-results');
  await expect(unknown).toContainText(
    'Mino stopped while these calls were running; their outcome is unknown and they were not run again. Check the project, then acknowledge.',
  );
  await expect(unknown).toContainText('edit_file');
  // The saved turn shows as it was: the question and the call, whose result is unknown.
  await expect(page.getByTestId('user-message')).toContainText('Change the greeting in greet.go to "hello".');
  await expect(page.locator('[data-testid="tool-card"][data-tool="edit_file"]').getByTestId('result-status')).toHaveText('[Tool result: unknown]');

  const textbox = page.getByRole('textbox', { name: 'Message to Mino' });
  await textbox.fill('Is it done?');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await expect(page.getByText('Acknowledge the unknown results above before asking another question.')).toBeVisible();

  await unknown.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(unknown).toBeHidden();
  mino.server.enqueue({ text: 'The file still says "hi".' });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('The file still says "hi".');
  // Nothing was run again.
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(GREET_GO);
});

test('resuming after a write was cut short removes its temporary file and says so before the acknowledgment', async ({ page, mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO });
  const args = JSON.stringify({ path: 'greet.go', old_string: '"hi"', new_string: '"hello"' });
  const planned = planTemporaryFile(mino.project, 'greet.go' as ProjectPath);
  if (!planned.ok) throw new Error(planned.reason);
  const log = await SessionLog.create(mino.home, mino.project);
  await log.append({ type: 'user', text: 'Change the greeting in greet.go to "hello".' });
  await log.append({ type: 'response', responseId: 'resp_cut', output: [{ type: 'function_call', call_id: 'call_cut', name: 'edit_file', arguments: args }] });
  await log.append({ type: 'tool_start', call_id: 'call_cut', name: 'edit_file', arguments: args, temp_files: [planned.temp] });
  await log.close();
  // What the write had got to when Mino was killed.
  await fs.writeFile(mino.projectFile(planned.temp.path), 'package main\n\nconst greeting = "hel');

  mino.picker.willPick(mino.project);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await page.getByTestId('session-item').filter({ hasText: 'Change the greeting' }).getByRole('button', { name: 'Resume' }).click();
  const unknown = page.getByTestId('unknown-results');
  await expect(unknown.getByTestId('removed-temp-files')).toHaveText(
    `Removed the unfinished temporary file this call had left in the project: ${planned.temp.path}.`,
  );
  await expect(fs.stat(mino.projectFile(planned.temp.path))).rejects.toMatchObject({ code: 'ENOENT' });
  await unknown.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(unknown).toBeHidden();
});

test('a resumed session shows its past the way it looked live, and clearing it keeps the id', async ({ page, mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO });
  await mino.open();
  const id = await mino.startSession();
  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  await page.getByRole('dialog', { name: 'Approve edit_file?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText(GREET_ANSWER);

  // A new window resumes it after the first has let it go.
  await page.close();
  const other = await mino.openSecondPage();
  mino.picker.willPick(mino.project);
  await other.getByRole('button', { name: 'Open project…' }).click();
  await other.getByTestId('session-item').filter({ hasText: id }).getByRole('button', { name: 'Resume' }).click();
  await expect(other.getByTestId('current-session-id')).toHaveText(id);
  await expect(other.getByTestId('user-message')).toContainText('Change the greeting in greet.go to "hello".');
  await expect(other.locator('[data-testid="tool-card"][data-tool="read_file"]').getByTestId('result-status')).toHaveText('[Tool result: completed]');
  await expect(other.locator('[data-testid="tool-card"][data-tool="edit_file"]').getByTestId('tool-output')).toContainText('Edited greet.go');
  await expect(other.getByTestId('assistant-message')).toContainText(GREET_ANSWER);

  await other.getByRole('button', { name: 'Clear session' }).click();
  const confirm = other.getByRole('dialog', { name: 'Clear this session?' });
  await expect(confirm).toContainText("The model forgets this conversation");
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Clear session' }).click();
  await expect(other.getByText('No messages yet.')).toBeVisible();
  await expect(other.getByTestId('current-session-id')).toHaveText(id);
  await expect(other.getByTestId('window-message')).toContainText('Session cleared');
});

test('a session open in another window is not opened twice: that window is focused and this one says so', async ({ page, mino }) => {
  await mino.open();
  const id = await mino.startSession();
  const second = await mino.openSecondPage();
  mino.picker.willPick(mino.project);
  await second.getByRole('button', { name: 'Open project…' }).click();
  await second.getByTestId('session-item').filter({ hasText: id }).getByRole('button', { name: 'Resume' }).click();
  await expect(second.getByRole('status')).toHaveText(`Session ${id} is open in another window; that window was brought to the front.`);
  await expect(second.getByTestId('header-title')).toHaveText('No session');
  expect(mino.focused).toHaveLength(1);
  await expect(page.getByTestId('current-session-id')).toHaveText(id);
});

test('"New session" inside a session opens it in its own window, which shows it', async ({ page, mino }) => {
  await mino.open();
  const id = await mino.startSession();
  await page.getByRole('toolbar', { name: 'Session' }).getByRole('button', { name: 'New session' }).click();
  await expect.poll(() => mino.openedWindows.length).toBe(1);
  const created = mino.openedWindows[0] ?? '';
  await expect(page.getByTestId('window-message')).toHaveText(`The new session ${created} opened in its own window.`);
  await expect(page.getByTestId('current-session-id')).toHaveText(id);

  const window2 = await mino.openSecondPage(`?session=${created}`);
  await expect(window2.getByTestId('current-session-id')).toHaveText(created);
  await expect(window2.getByTestId('header-project')).toHaveText(mino.project);
  await expect(window2.getByLabel('Permission mode')).toHaveValue('manual');
});
