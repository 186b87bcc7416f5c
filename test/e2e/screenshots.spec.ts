// The README's pictures of the main states, taken from the real renderer.
// Set UPDATE_SCREENSHOTS=1 to write them to docs/screenshots; otherwise they
// go to the test's output folder, so an ordinary run changes no tracked file.
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { ask, expect, GREET_ANSWER, GREET_GO, scriptGreetTurn, test } from './fixtures';

const DOCS_DIR = path.resolve(__dirname, '../../docs/screenshots');

test.use({ viewport: { width: 1040, height: 680 } });

test('the main states render for the README: start screen, approval with a diff, transcript with cards, mode confirmation', async ({ page, mino }, testInfo) => {
  const shot = (name: string, target: Page = page) =>
    target.screenshot({ path: process.env.UPDATE_SCREENSHOTS === '1' ? path.join(DOCS_DIR, name) : testInfo.outputPath(name), animations: 'disabled', caret: 'hide' });
  await mino.writeProject({ 'greet.go': GREET_GO });

  // A project opened once is remembered; a fresh window starts on the start screen with it listed.
  mino.picker.willPick(mino.project);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect(page.getByRole('button', { name: 'New session' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Recent projects' })).toBeVisible();
  await expect(page.locator('.recent-item')).toHaveCount(1);
  await shot('start-screen.png');

  await page.locator('.recent-item').click();
  await page.getByRole('button', { name: 'New session' }).click();
  scriptGreetTurn(mino.server);
  await ask(page, 'Change the greeting in greet.go to "hello".');
  const dialog = page.getByRole('dialog', { name: 'Approve edit_file?' });
  await expect(dialog.locator('.diff-code-insert')).toBeVisible();
  await shot('approval-dialog.png');

  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText(GREET_ANSWER);
  await shot('transcript.png');

  await page.getByLabel('Permission mode').selectOption('accept-edits');
  await expect(page.getByRole('dialog', { name: 'Switch to this mode?' })).toBeVisible();
  await shot('mode-confirmation.png');
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Permission mode')).toHaveValue('manual');
});
