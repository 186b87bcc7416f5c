// The README's pictures of the main states, taken from the real renderer, in
// the light and the dark theme (`NAME.png` and `NAME-dark.png`).
// Set UPDATE_SCREENSHOTS=1 to write them to docs/screenshots; otherwise they
// go to the test's output folder, so an ordinary run changes no tracked file.
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { ask, expect, GREET_GO, test } from './fixtures';

const DOCS_DIR = path.resolve(__dirname, '../../docs/screenshots');

/** The answer after the edit: what Markdown in the transcript shows (a table, a highlighted block). */
const ANSWER = [
  'I changed the greeting on line 3 of `greet.go`:',
  '',
  '| File | Before | After |',
  '| --- | --- | --- |',
  '| `greet.go` | `"hi"` | `"hello"` |',
  '',
  '```go',
  'package main',
  '',
  'const greeting = "hello" // shown by main()',
  '```',
].join('\n');

test.use({ viewport: { width: 1280, height: 800 } });

for (const theme of ['light', 'dark'] as const) {
  test(`the main states render for the README in the ${theme} theme: start screen, approval with a diff, transcript, changes, settings, a failed turn`, async ({ page, mino }, testInfo) => {
    // Four attempts of a failing request wait out the retry delays.
    test.setTimeout(150_000);
    const shot = (name: string, target: Page = page) => {
      const file = `${name}${theme === 'dark' ? '-dark' : ''}.png`;
      return target.screenshot({ path: process.env.UPDATE_SCREENSHOTS === '1' ? path.join(DOCS_DIR, file) : testInfo.outputPath(file), animations: 'disabled', caret: 'hide' });
    };
    await page.emulateMedia({ colorScheme: theme });
    await mino.writeProject({ 'greet.go': GREET_GO });

    // A project opened once is remembered; a fresh window starts on the start screen with it listed.
    mino.picker.willPick(mino.project);
    await mino.open();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.getByRole('button', { name: 'Open project…' }).click();
    await expect(page.getByRole('button', { name: 'New session' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Recent projects' })).toBeVisible();
    await expect(page.locator('.recent-item')).toHaveCount(1);
    await shot('start-screen');

    await page.locator('.recent-item').click();
    await page.getByRole('button', { name: 'New session' }).click();
    mino.server.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'call_read_greet' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'call_edit_greet' }] },
      { text: ANSWER },
    );
    await ask(page, 'Change the greeting in greet.go to "hello".');
    const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
    await expect(dialog.getByTestId('diff')).toBeVisible();
    // Past the first second, in which nothing approves (the button is drawn disabled until then).
    await expect(dialog.getByRole('button', { name: 'Approve' })).toBeEnabled();
    await shot('approval-dialog');

    await dialog.getByRole('button', { name: 'Approve' }).click();
    const answer = page.getByTestId('assistant-message').last();
    await expect(answer.getByRole('table')).toBeVisible();
    await expect(answer.getByTestId('code-block').locator('.token').first()).toBeVisible();
    await shot('transcript');

    await page.getByRole('button', { name: 'Changes', exact: true }).click();
    const changes = page.getByTestId('changes-dialog');
    await changes.getByTestId('changed-file').first().getByText('Show diff').click();
    await expect(changes.getByTestId('changed-file').first().getByTestId('diff')).toBeVisible();
    await shot('changes');
    await changes.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('button', { name: 'Settings' }).click();
    const themeChoice = page.getByRole('dialog', { name: 'Settings' }).getByLabel('Theme', { exact: true });
    await expect(themeChoice).toBeEnabled();
    await themeChoice.scrollIntoViewIfNeeded();
    await shot('settings');
    await page.getByRole('button', { name: 'Close settings' }).click();

    // A request that fails after every attempt: one card saying what failed, what was tried, and Retry.
    const serverError = { httpStatus: 500, body: { error: { message: 'Upstream is down.', type: 'server_error' } } };
    mino.server.enqueue(serverError, serverError, serverError, serverError);
    await ask(page, 'Summarize what changed.');
    await expect(page.getByTestId('turn-failed')).toBeVisible({ timeout: 60_000 });
    await shot('failed-turn');
  });
}
