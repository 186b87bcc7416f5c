// The file list beside the transcript, against the real service on a real
// temp project: folders open lazily, protected files are marked and cannot be
// mentioned, .git/ is not listed, the filter searches the whole project, and
// a click puts `@path` in the composer.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { expect, test } from './fixtures';

test.beforeEach(async ({ mino }) => {
  await mino.writeProject({
    'README.md': '# demo\n',
    '.env': 'TOKEN=secret\n',
    'src/main.ts': 'export {};\n',
    'src/util/strings.ts': 'export {};\n',
    '.git/config': '[core]\n',
    'node_modules/left-pad/index.js': 'module.exports = 1;\n',
  });
});

test('lists the project, marks .env protected and offers no way to open or mention it, and leaves .git out', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const panel = page.getByTestId('file-panel');
  await expect(panel.getByRole('heading', { name: 'Files' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'src/', exact: true })).toHaveAttribute('aria-expanded', 'false');
  await expect(panel.getByRole('button', { name: 'README.md' })).toBeVisible();
  await expect(panel.getByText('node_modules/')).toBeVisible();
  await expect(panel.getByText('.git', { exact: false })).toHaveCount(0);

  const env = panel.locator('.file-protected', { hasText: '.env' });
  await expect(env).toContainText('protected');
  await expect(env).toHaveAttribute('title', 'Protected (.env): Mino never opens or mentions it.');
  await expect(env.getByRole('button')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /\.env/ })).toHaveCount(0);

  // A folder opens on demand, and its files are listed under it.
  await panel.getByRole('button', { name: 'src/', exact: true }).click();
  await expect(panel.getByRole('button', { name: 'src/', exact: true })).toHaveAttribute('aria-expanded', 'true');
  await expect(panel.getByRole('button', { name: 'main.ts', exact: true })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'util/', exact: true })).toBeVisible();
});

test('clicking a file inserts @path into the composer at the caret, and the folder mention button does too', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const panel = page.getByTestId('file-panel');
  const composer = page.getByRole('textbox', { name: 'Message to Mino' });
  await composer.fill('Explain');
  await panel.getByRole('button', { name: 'README.md' }).click();
  await expect(composer).toHaveValue('Explain @README.md ');
  await expect(composer).toBeFocused();
  await page.keyboard.type('and');
  await panel.getByRole('button', { name: 'Mention src' }).click();
  await expect(composer).toHaveValue('Explain @README.md and @src ');
});

test('the filter searches the whole project, skips node_modules, marks protected matches and says when nothing matches', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const panel = page.getByTestId('file-panel');
  const filter = panel.getByRole('searchbox', { name: 'Filter files' });
  await filter.fill('strings');
  const results = panel.getByRole('list', { name: 'Files matching strings' });
  await expect(results.getByRole('button')).toHaveText(['src/util/strings.ts']);
  await results.getByRole('button', { name: 'src/util/strings.ts' }).click();
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toHaveValue('@src/util/strings.ts ');

  await filter.fill('left-pad');
  await expect(panel.getByText('No file matches “left-pad”.')).toBeVisible();
  await filter.fill('.env');
  await expect(panel.locator('.file-protected')).toContainText('.env');
  await expect(panel.getByRole('button', { name: /\.env/ })).toHaveCount(0);

  // Clearing the filter brings the tree back; a file written meanwhile appears after Refresh.
  await fs.writeFile(path.join(mino.project, 'NEW.md'), 'new\n');
  await filter.fill('');
  await panel.getByRole('button', { name: 'Refresh' }).click();
  await expect(panel.getByRole('button', { name: 'NEW.md' })).toBeVisible();
});

test('a name with a hidden character is shown with the character named, and mentioned by its real path', async ({ page, mino }) => {
  await mino.writeProject({ 'notes\u202Etxt.md': 'x\n' });
  await mino.open();
  await mino.startSession();
  const panel = page.getByTestId('file-panel');
  const row = panel.getByRole('button', { name: 'notes⟨U+202E⟩txt.md' });
  await expect(row).toBeVisible();
  await row.click();
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toHaveValue('@notes\u202Etxt.md ');
});
