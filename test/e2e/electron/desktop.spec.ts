// The start-up behaviours of the real app on a desktop: the window appears,
// Copy reaches the clipboard, the keyring and GPU switches, the folder dialog's
// start, one process per person, and the theme's window background. Runs
// where Electron's binary is installed (under xvfb-run on a headless Linux);
// skipped where it is not.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { expect, test } from '@playwright/test';
import { WINDOW_BACKGROUND } from '../../../src/main/electron/theme';
import { launchMino, type LaunchedMino } from './launchMino';

let mino: LaunchedMino | undefined;

test.afterEach(async () => {
  await mino?.close();
  mino = undefined;
});

test('the first window becomes visible without anyone waiting on ready-to-show', async () => {
  mino = await launchMino();
  const { app } = mino;
  await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((window) => window.isVisible()))).toEqual([true]);
});

test("the page may write to the clipboard (Copy), and may not read it", async () => {
  mino = await launchMino();
  const { app, page } = mino;
  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.focus());
  const written = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { writeText(text: string): Promise<void> } } }).navigator.clipboard.writeText('npm test -- greet').then(
      () => 'written',
      (error: Error) => error.message,
    ),
  );
  expect(written).toBe('written');
  expect(await app.evaluate(({ clipboard }) => clipboard.readText())).toBe('npm test -- greet');
  const read = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText().then(
      () => 'read',
      () => 'refused',
    ),
  );
  expect(read).toBe('refused');
});

test('on a desktop Electron does not map (sway), keys go to the Secret Service; on GNOME, Electron chooses', async () => {
  test.skip(process.platform !== 'linux', 'the keyring switch is Linux only');
  mino = await launchMino({ env: { XDG_CURRENT_DESKTOP: 'sway' } });
  expect(await mino.app.evaluate(({ app }) => app.commandLine.getSwitchValue('password-store'))).toBe('gnome-libsecret');
  await mino.close();
  mino = await launchMino({ env: { XDG_CURRENT_DESKTOP: 'GNOME' } });
  expect(await mino.app.evaluate(({ app }) => app.commandLine.getSwitchValue('password-store'))).toBe('');
});

test('a password store the person names wins', async () => {
  test.skip(process.platform !== 'linux', 'the keyring switch is Linux only');
  mino = await launchMino({ env: { XDG_CURRENT_DESKTOP: 'sway' }, args: ['--password-store=basic'] });
  expect(await mino.app.evaluate(({ app }) => app.commandLine.getSwitchValue('password-store'))).toBe('basic');
});

test('MINO_DISABLE_GPU=1 turns hardware acceleration off', async () => {
  mino = await launchMino({ env: { MINO_DISABLE_GPU: '1' } });
  expect(await mino.app.evaluate(({ app }) => app.isHardwareAccelerationEnabled())).toBe(false);
});

test('the folder dialog opens where the last project is', async () => {
  mino = await launchMino();
  const { app, page, home } = mino;
  const project = path.join(home, 'work', 'app');
  await fs.mkdir(project, { recursive: true });
  await app.evaluate(({ dialog }, folder) => {
    const seen: unknown[] = [];
    (globalThis as unknown as { dialogOptions: unknown[] }).dialogOptions = seen;
    dialog.showOpenDialog = (async (...args: unknown[]) => {
      seen.push(args.at(-1));
      return { canceled: false, filePaths: [folder] };
    }) as unknown as typeof dialog.showOpenDialog;
  }, project);
  const open = () => page.evaluate(() => (globalThis as unknown as { mino: { openProject(): Promise<{ ok: boolean }> } }).mino.openProject());
  expect(await open()).toMatchObject({ ok: true });
  expect(await open()).toMatchObject({ ok: true });
  const options = await app.evaluate(() => (globalThis as unknown as { dialogOptions: Array<{ defaultPath?: string }> }).dialogOptions);
  expect(options.map((option) => option.defaultPath)).toEqual([undefined, project]);
});

test('launching Mino again opens a window in the running one, and the second process quits', async () => {
  mino = await launchMino();
  const { app, binary, args, env } = mino;
  const windowOpened = app.waitForEvent('window');
  const second = spawn(binary, args, { env, stdio: 'ignore' });
  const exitCode = await new Promise<number | null>((resolve) => second.on('exit', (code) => resolve(code)));
  expect(exitCode).toBe(0);
  const window = await windowOpened;
  await window.waitForLoadState('domcontentloaded');
  expect(window.url()).toBe('app://mino/index.html');
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(2);
});

test("a window starts on the dark theme's background when the Theme setting is dark", async () => {
  const home = await fs.mkdtemp(path.join(process.env.TMPDIR ?? '/tmp', 'mino-electron-theme-'));
  try {
    await fs.mkdir(path.join(home, '.mino'), { mode: 0o700 });
    await fs.writeFile(path.join(home, '.mino', 'config.json'), JSON.stringify({ theme: 'dark' }), { mode: 0o600 });
    mino = await launchMino({ home });
    const colour = await mino.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getBackgroundColor());
    expect(colour?.toLowerCase()).toBe(WINDOW_BACKGROUND.dark);
    await mino.close();
    mino = undefined;
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
});
