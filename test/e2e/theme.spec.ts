// The dark theme: following the system's preference, and the Theme setting
// overriding it, in every window at once.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const LIGHT_BG = 'rgb(246, 245, 241)';
const DARK_BG = 'rgb(21, 23, 27)';

const expectBackground = (page: Page, colour: string) => expect(page.locator('html')).toHaveCSS('background-color', colour);

async function chooseTheme(page: Page, label: 'System' | 'Light' | 'Dark') {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Theme', { exact: true }).selectOption({ label });
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved to');
  await dialog.getByRole('button', { name: 'Close settings' }).click();
}

test('the window follows the system: dark when the system is dark, light again when it turns light', async ({ page, mino }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await mino.open();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectBackground(page, DARK_BG);
  // Native controls (scroll bars, the select's list) are drawn dark too.
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');

  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expectBackground(page, LIGHT_BG);
});

test('the Theme setting wins over the system, is stored, and applies in every open window', async ({ page, mino }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await mino.open();
  const other = await mino.openSecondPage();
  await other.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  await chooseTheme(page, 'Dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectBackground(page, DARK_BG);
  await expect(other.locator('html')).toHaveAttribute('data-theme', 'dark');
  const stored = JSON.parse(await fs.readFile(path.join(mino.home, '.mino', 'config.json'), 'utf8'));
  expect(stored).toMatchObject({ theme: 'dark' });

  // Kept across a reload; a system turning dark or light changes nothing while a theme is chosen.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'dark' });
  await chooseTheme(page, 'Light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expectBackground(page, LIGHT_BG);

  // Back to System: the (now dark) system decides again.
  await chooseTheme(page, 'System');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
