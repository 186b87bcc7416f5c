// A whole turn from the keyboard alone, and the composer's keys: Enter sends,
// Shift+Enter adds a line, Enter while an input method composes does neither;
// a failed turn gives the message back with Retry; Settings keeps Tab inside
// and gives the keyboard back to the composer.
import * as fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, GREET_ANSWER, GREET_GO, GREET_GO_EDITED, scriptGreetTurn, test } from './fixtures';

/** The accessible name (or text) of what has focus. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null; textContent: string | null } | null } }).document.activeElement;
    return (active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim();
  });
}

/** Presses Tab until the control named `name` has focus (as a keyboard user would), at most `limit` times. */
async function tabTo(page: Page, name: string, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if ((await focusedName(page)) === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached "${name}"; focus is on "${await focusedName(page)}"`);
}

test('a whole turn by keyboard: open the project, start a session, type, Enter, approve with y, read the answer, keep typing', async ({ page, mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO });
  scriptGreetTurn(mino.server);
  await mino.open();
  mino.picker.willPick(mino.project);
  await tabTo(page, 'Open project…');
  await page.keyboard.press('Enter');
  // The project is open: the keyboard is on its next step.
  await expect(page.getByRole('button', { name: 'New session' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('session-layout')).toHaveAttribute('data-session-id', /^[0-9a-f]{32}$/);
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await expect(box).toBeFocused();

  await page.keyboard.type('Change the greeting in greet.go to "hello".');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-message').last()).toHaveText(/Change the greeting in greet\.go to "hello"\./);
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  // Once the dialog has been up a moment, y on its own approves.
  await expect(dialog.getByRole('button', { name: 'Approve' })).toBeEnabled();
  await page.waitForTimeout(1100);
  await page.keyboard.press('y');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('assistant-message').last()).toContainText(GREET_ANSWER);
  expect(await fs.readFile(mino.projectFile('greet.go'), 'utf8')).toBe(GREET_GO_EDITED);
  // The keyboard is back where the next question is written.
  await expect(box).toBeFocused();
  await page.keyboard.type('Thanks');
  await expect(box).toHaveValue('Thanks');
});

test('Enter sends, Shift+Enter adds a line, Enter during input-method composition does neither, and the hint says so', async ({ page, mino }) => {
  mino.server.enqueue({ text: 'Two lines received.' });
  await mino.open();
  await mino.startSession();
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await expect(page.getByTestId('composer-hint')).toHaveText('Enter sends · Shift+Enter adds a line.');
  await box.click();
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  await expect(box).toHaveValue('first line\nsecond line');

  // An input method's Enter picks a candidate: it must not send.
  await box.evaluate((element) => {
    const init = { key: 'Enter', code: 'Enter', keyCode: 229, isComposing: true, bubbles: true, cancelable: true };
    element.dispatchEvent(new (globalThis as unknown as { KeyboardEvent: new (type: string, init: object) => unknown }).KeyboardEvent('keydown', init) as never);
  });
  await page.waitForTimeout(300);
  expect(mino.server.requests).toHaveLength(0);
  await expect(page.getByTestId('user-message')).toHaveCount(0);

  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-message').last()).toHaveText(/first line\nsecond line/);
  await expect(page.getByTestId('assistant-message').last()).toContainText('Two lines received.');
  await expect(box).toHaveValue('');
  expect(mino.server.requests).toHaveLength(1);
});

test('a turn that fails mid-answer offers Retry on its card, and Retry sends the message once', async ({ page, mino }) => {
  mino.server.enqueue({ fail: 'error', message: 'The service is overloaded.', partialDeltas: ['I will ', 'start'], deltaDelayMs: 100 });
  await mino.open();
  await mino.startSession();
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill('Summarize the notes.');
  await box.press('Enter');
  const failed = page.getByTestId('turn-failed');
  await expect(failed).toContainText('The service is overloaded.');
  // Not put back in the box: Retry is the one way to send it again, so it is never sent twice.
  await expect(box).toHaveValue('');

  mino.server.enqueue({ text: 'The notes are short.' });
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('The notes are short.');
  await expect(page.getByTestId('user-message')).toHaveCount(1);
  await expect(failed.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  const last = mino.server.requests.at(-1)?.body as { input: Array<{ role?: string; content?: unknown }> };
  expect(JSON.stringify(last.input.at(-1))).toContain('Summarize the notes.');
});

test('a turn the service refuses at once (HTTP 401) offers Retry too', async ({ page, mino }) => {
  mino.server.enqueue({ httpStatus: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
  await mino.open();
  await mino.startSession();
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill('Are you there?');
  await box.press('Enter');
  await expect(page.getByTestId('turn-end')).toContainText('Check the API key in Settings');
  await expect(page.getByTestId('turn-failed').getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('Settings keeps Tab and Shift+Tab inside, Escape closes it, and the keyboard goes back to the composer', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await expect(box).toBeFocused();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close settings' })).toBeFocused();
  const focusInside = () => dialog.evaluate((element) => element.contains(element.ownerDocument.activeElement));
  const controls = await dialog.locator('button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [href]').count();
  // Around the whole dialog and beyond, forwards, then backwards past the first control.
  for (let i = 0; i < controls + 3; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focusInside(), `after Tab ${i + 1}`).toBe(true);
  }
  await dialog.getByRole('button', { name: 'Close settings' }).focus();
  await page.keyboard.press('Shift+Tab');
  expect(await focusInside()).toBe(true);
  expect(await focusedName(page)).not.toBe('Close settings');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(box).toBeFocused();
});
