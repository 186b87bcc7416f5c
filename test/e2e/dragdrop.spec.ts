// Dropping a folder on the start screen opens it as a project, refused for
// the picker's reasons with the picker's messages. A File in Chromium has no
// place on disk, so the test bridge looks the dropped File's name up in
// window.__minoDroppedPaths (the one fake, at the edge; the app's preload
// asks Electron's webUtils instead); main's checks run for real.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The page's own DOM classes (this file is compiled for Node, without the DOM's types). */
interface PageGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: string[], name: string) => unknown;
}

/** Drags Files of these names over the start screen, checks the highlight, and drops them. */
async function dropFiles(page: Page, names: string[], paths: Record<string, string>): Promise<void> {
  await page.evaluate((map) => {
    (globalThis as unknown as Record<string, unknown>).__minoDroppedPaths = map;
  }, paths);
  const dataTransfer = await page.evaluateHandle((files) => {
    const page = globalThis as unknown as PageGlobals;
    const transfer = new page.DataTransfer();
    for (const name of files) transfer.items.add(new page.File(['x'], name));
    return transfer;
  }, names);
  const target = page.getByTestId('drop-target');
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await expect(target).toHaveClass(/drop-active/);
  await expect(page.getByRole('status').filter({ hasText: 'Drop the folder to open it as a project' })).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer });
  // The highlight ends with the drop (and the start screen itself goes once a project opens).
  await expect(page.locator('.drop-active')).toHaveCount(0);
}

test('dropping a folder opens it as a project, like the picker', async ({ page, mino }) => {
  await mino.writeProject({ 'README.md': '# demo\n' });
  await mino.open();
  await dropFiles(page, ['project'], { project: mino.project });
  await expect(page.getByRole('button', { name: 'New session' })).toBeVisible();
  await expect(page.getByTestId('header-project')).toContainText('project');
  const recent = JSON.parse(await fs.readFile(path.join(mino.home, '.mino', 'recent-projects.json'), 'utf8')) as unknown;
  expect(JSON.stringify(recent)).toContain(JSON.stringify(mino.project));
});

test('dropping a folder that contains ~/.mino is refused with the picker\'s message', async ({ page, mino }) => {
  const parentOfHome = path.dirname(mino.home);
  await mino.open();
  mino.picker.willPick(parentOfHome);
  await page.getByRole('button', { name: 'Open project…' }).click();
  const pickerMessage = (await page.getByRole('alert').textContent()) ?? '';
  expect(pickerMessage).toContain("contains, or is inside, Mino's data directory (~/.mino)");

  await page.reload();
  await dropFiles(page, ['root'], { root: parentOfHome });
  await expect(page.getByRole('alert')).toHaveText(pickerMessage);
  await expect(page.getByRole('button', { name: 'Open project…' })).toBeVisible();
});

test('dropping a file, several items or something without a path says what to do and opens nothing', async ({ page, mino }) => {
  await mino.writeProject({ 'notes.txt': 'hello\n' });
  await mino.open();
  await dropFiles(page, ['notes.txt'], { 'notes.txt': mino.projectFile('notes.txt') });
  await expect(page.getByRole('alert')).toHaveText(`${mino.projectFile('notes.txt')} is not a folder. Choose a project folder.`);

  await dropFiles(page, ['a', 'b'], { a: mino.project, b: mino.project });
  await expect(page.getByRole('alert')).toHaveText('Drop one folder at a time to open it as a project. 2 items were dropped.');

  // A File the page made itself has no place on disk: main is asked with no path and says so.
  await dropFiles(page, ['made-up'], {});
  await expect(page.getByRole('alert')).toHaveText(
    'Mino could not tell where the dropped item is on disk. Drop a folder from your file manager, or use "Open project…".',
  );
  await expect(page.getByRole('button', { name: 'Open project…' })).toBeVisible();
  expect(await page.getByRole('button', { name: 'New session' }).count()).toBe(0);
});
