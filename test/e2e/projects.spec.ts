import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MINO_HOME_OVERLAP_MESSAGE } from '../../src/main/core/fs/projectGuard';
import { expect, test } from './fixtures';

test('opening the home directory (which contains ~/.mino) is refused with the reason and no session is created', async ({ page, mino }) => {
  await fs.mkdir(path.join(mino.home, '.mino'), { recursive: true });
  mino.picker.willPick(mino.home);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect(page.getByRole('alert')).toContainText(MINO_HOME_OVERLAP_MESSAGE);
  await expect(page.getByTestId('header-project')).toHaveText('None');
  await expect(page.getByTestId('header-title')).toHaveText('No session');
  await expect(page.getByRole('button', { name: 'New session' })).toHaveCount(0);
  expect(mino.picker.calls).toBe(1);
  await expect(fs.access(path.join(mino.home, '.mino', 'recent-projects.json'))).rejects.toThrow();
  expect(await fs.readdir(path.join(mino.home, '.mino', 'sessions')).catch(() => [])).toEqual([]);
});

test('a picked project opens with its directory in the header, lists its sessions, and is remembered', async ({ page, mino }) => {
  mino.picker.willPick(mino.project);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect(page.getByTestId('header-project')).toHaveText(mino.project);
  await expect(page.getByRole('heading', { name: `Sessions in ${path.basename(mino.project)}` })).toBeVisible();
  await expect(page.getByText('No other saved sessions in this project.')).toBeVisible();

  const recent = JSON.parse(await fs.readFile(path.join(mino.home, '.mino', 'recent-projects.json'), 'utf8'));
  expect(recent.projects.map((p: { path: string }) => p.path)).toEqual([mino.project]);

  await page.getByRole('button', { name: 'New session' }).click();
  await expect(page.getByTestId('current-session-id')).toHaveText(/^[0-9a-f]{32}$/);
  await expect(page.getByLabel('Permission mode')).toHaveValue('manual');
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeVisible();

});

test('a project that disappeared is refused from the recent list with the reason', async ({ page, mino }) => {
  const gone = path.join(path.dirname(mino.project), 'gone');
  await fs.mkdir(gone);
  mino.picker.willPick(gone);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect(page.getByTestId('header-project')).toHaveText(gone);
  await page.reload();
  // Removed only once the list shows it: a list read after the removal would already have pruned it.
  const recent = page.getByRole('button', { name: /gone/ });
  await expect(recent).toBeVisible();
  await fs.rm(gone, { recursive: true });
  await recent.click();
  await expect(page.getByRole('alert')).toContainText('does not exist');
  await expect(page.getByTestId('header-title')).toHaveText('No session');
});

test('cancelling the folder picker leaves the start screen as it was', async ({ page, mino }) => {
  mino.picker.willPick(null);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect.poll(() => mino.picker.calls).toBe(1);
  await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
