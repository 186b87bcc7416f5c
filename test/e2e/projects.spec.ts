import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROJECT_CONTAINS_MINO_HOME_MESSAGE } from '../../src/main/core/fs/projectGuard';
import { expect, test } from './fixtures';

test('opening the home directory (which contains ~/.mino) is refused with the reason', async ({ page, mino }) => {
  await fs.mkdir(path.join(mino.home, '.mino'), { recursive: true });
  mino.picker.willPick(mino.home);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect(page.getByRole('alert')).toContainText(PROJECT_CONTAINS_MINO_HOME_MESSAGE);
  await expect(page.getByTestId('header-project')).toHaveText('None');
  expect(mino.picker.calls).toBe(1);
  await expect(fs.access(path.join(mino.home, '.mino', 'recent-projects.json'))).rejects.toThrow();
});

test('a picked project opens, shows in the header and is remembered in the recent list', async ({ page, mino }) => {
  const project = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-e2e-project-'));
  try {
    mino.picker.willPick(project);
    await mino.open();
    await page.getByRole('button', { name: 'Open project…' }).click();
    await expect(page.getByTestId('header-project')).toHaveText(path.basename(project));
    await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeVisible();

    const recent = JSON.parse(await fs.readFile(path.join(mino.home, '.mino', 'recent-projects.json'), 'utf8'));
    expect(recent.projects.map((p: { path: string }) => p.path)).toEqual([await fs.realpath(project)]);

    await page.reload();
    await expect(page.getByTestId('header-project')).toHaveText('None');
    await expect(page.getByRole('button', { name: new RegExp(path.basename(project)) })).toBeVisible();
  } finally {
    await fs.rm(project, { recursive: true, force: true });
  }
});

test('cancelling the folder picker leaves the start screen as it was', async ({ page, mino }) => {
  mino.picker.willPick(null);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect.poll(() => mino.picker.calls).toBe(1);
  await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
