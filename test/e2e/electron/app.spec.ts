// What only Electron can show: the built app's window options, preload
// surface, protocol and guards. Runs where Electron's binary is installed and
// is reported as skipped where it is not (it cannot be downloaded everywhere);
// launchMino decides that when each spec runs, after Electron's installer.
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { launchMino, type LaunchedMino } from './launchMino';

let mino: LaunchedMino;
let app: ElectronApplication;
let page: Page;

test.beforeEach(async () => {
  mino = await launchMino();
  ({ app, page } = mino);
});

test.afterEach(async () => {
  await mino?.close();
});

test('the page is loaded from app://mino with no Node globals', async () => {
  expect(page.url()).toBe('app://mino/index.html');
  const globals = await page.evaluate(() => {
    const scope = globalThis as { require?: unknown; process?: unknown; module?: unknown };
    return [typeof scope.require, typeof scope.process, typeof scope.module];
  });
  expect(globals).toEqual(['undefined', 'undefined', 'undefined']);
});

test('the preload exposes intent-level functions only, and they reach the service', async () => {
  const keys = await page.evaluate(() => Object.keys((globalThis as unknown as { mino: object }).mino).sort());
  expect(keys).toContain('getSettings');
  expect(keys).not.toContain('invoke');
  expect(keys).not.toContain('on');
  const result = await page.evaluate(() => (globalThis as unknown as { mino: { getAppInfo(): Promise<unknown> } }).mino.getAppInfo());
  expect(result).toMatchObject({ ok: true, value: { name: 'Mino' } });
});

test('window.open is denied and navigation away is blocked', async () => {
  expect(await page.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com') === null)).toBe(true);
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
  });
  await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();
  expect(page.url()).toBe('app://mino/index.html');
  expect(app.windows()).toHaveLength(1);
});
