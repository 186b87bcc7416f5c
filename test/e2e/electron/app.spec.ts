// What only Electron can show: the built app's window options, preload
// surface, protocol and guards. Runs where Electron's binary is installed and
// is reported as skipped where it is not (it cannot be downloaded everywhere).
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { APP_ROOT, electronBinary, MISSING_BINARY_REASON } from './electronBinary';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';

const binary = electronBinary();
test.skip(binary === null, MISSING_BINARY_REASON);

let app: ElectronApplication;
let page: Page;
let home: string;

test.beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-electron-home-'));
  const rootUser = typeof process.getuid === 'function' && process.getuid() === 0;
  app = await electron.launch({
    executablePath: binary ?? undefined,
    // Chromium refuses to run as root with its sandbox; only CI containers run as root.
    args: [...(rootUser ? ['--no-sandbox'] : []), APP_ROOT],
    env: { ...process.env, HOME: home, OPENAI_API_KEY: '' },
  });
  page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
});

test.afterEach(async () => {
  await app?.close();
  await fs.rm(home, { recursive: true, force: true });
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
