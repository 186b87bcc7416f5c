// @mentions in the composer: typing `@` and part of a path suggests project
// files (never protected ones); the keyboard picks one; the message the model
// receives carries the mention, and its instructions say what one names.
import * as path from 'node:path';
import { expect, test } from './fixtures';

test.beforeEach(async ({ mino }) => {
  await mino.writeProject({
    'src/main.ts': 'export {};\n',
    'src/server.key': 'key\n',
    'scripts/build.sh': 'echo build\n',
    '.env': 'TOKEN=secret\n',
    '.env.local': 'TOKEN=secret\n',
  });
});

test('typing @sr suggests src/..., arrows and Enter pick one, and the sent message contains the mention', async ({ page, mino }) => {
  mino.server.enqueue({ text: 'It exports nothing.' });
  await mino.open();
  await mino.startSession();
  const composer = page.getByRole('textbox', { name: 'Message to Mino' });
  await composer.click();
  await page.keyboard.type('What does @sr');
  const list = page.getByRole('listbox', { name: 'Files to mention' });
  await expect(list.getByRole('option')).toHaveText(['src/', 'src/main.ts']);
  await expect(list.getByRole('option', { name: 'src/', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(composer).toHaveAttribute('aria-activedescendant', (await list.getByRole('option').first().getAttribute('id')) ?? '');

  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { name: 'src/main.ts' })).toHaveAttribute('aria-selected', 'true');
  // Enter picks while the list is open: it does not send.
  await page.keyboard.press('Enter');
  await expect(composer).toHaveValue('What does @src/main.ts ');
  await expect(list).toHaveCount(0);
  expect(mino.server.requests).toHaveLength(0);

  await page.keyboard.type('export?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('It exports nothing.');
  const body = mino.server.requests[0].body as { input: Array<{ role?: string; content?: unknown }>; instructions: string };
  expect(body.input.at(-1)).toEqual({ type: 'message', role: 'user', content: 'What does @src/main.ts export?' });
  expect(body.instructions).toContain('A word such as @src/app.ts in the person\'s message');
});

test('Tab picks a folder and keeps suggesting inside it; Escape closes the list and leaves the text', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const composer = page.getByRole('textbox', { name: 'Message to Mino' });
  await composer.click();
  await page.keyboard.type('@scr');
  const list = page.getByRole('listbox', { name: 'Files to mention' });
  await expect(list.getByRole('option').first()).toHaveText('scripts/');
  await page.keyboard.press('Tab');
  await expect(composer).toHaveValue('@scripts/');
  await expect(composer).toBeFocused();
  await expect(list.getByRole('option')).toHaveText(['scripts/build.sh']);
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(composer).toHaveValue('@scripts/');
  // A new mention opens the list again.
  await page.keyboard.type(' and @mai');
  await expect(list.getByRole('option')).toHaveText(['src/main.ts']);
});

test('while a turn runs, Escape first closes the suggestions and only then stops the turn', async ({ page, mino }) => {
  mino.server.enqueue({ hangAfterDeltas: ['Looking at', ' it'] });
  await mino.open();
  await mino.startSession();
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill('Take your time.');
  await box.press('Enter');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Looking at it');
  await box.pressSequentially('next @sr');
  const list = page.getByRole('listbox', { name: 'Files to mention' });
  await expect(list.getByRole('option').first()).toHaveText('src/');
  await box.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(page.getByTestId('turn-end')).toHaveCount(0);
  await box.press('Escape');
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  await expect(box).toHaveValue('next @sr');
});

test('protected files are never suggested', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const composer = page.getByRole('textbox', { name: 'Message to Mino' });
  await composer.click();
  await page.keyboard.type('@.en');
  await expect(page.getByRole('status').filter({ hasText: 'No project file matches “@.en”.' })).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Files to mention' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.keyboard.type(' @server');
  await expect(page.getByText('No project file matches “@server”.')).toBeVisible();
});

// The README's picture of the file list and the @ suggestions (UPDATE_SCREENSHOTS=1 writes docs/screenshots).
for (const theme of ['light', 'dark'] as const) {
  test(`the file list and @ suggestions render for the README in the ${theme} theme`, async ({ page, mino }, testInfo) => {
    await page.setViewportSize({ width: 1200, height: 760 });
    await page.emulateMedia({ colorScheme: theme });
    await mino.writeProject({ 'README.md': '# demo\n', 'src/util/strings.ts': 'export {};\n', 'package.json': '{}\n' });
    await mino.open();
    await mino.startSession();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const panel = page.getByTestId('file-panel');
    await panel.getByRole('button', { name: 'src/', exact: true }).click();
    await expect(panel.getByRole('button', { name: 'util/', exact: true })).toBeVisible();
    await page.getByRole('textbox', { name: 'Message to Mino' }).click();
    await page.keyboard.type('Explain @sr');
    await expect(page.getByRole('listbox', { name: 'Files to mention' }).getByRole('option')).toHaveText(['src/', 'src/util/', 'src/main.ts', 'src/util/strings.ts']);
    const file = `files-and-mentions${theme === 'dark' ? '-dark' : ''}.png`;
    const where = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '../../docs/screenshots', file) : testInfo.outputPath(file);
    await page.screenshot({ path: where, animations: 'disabled', caret: 'hide' });
  });
}
