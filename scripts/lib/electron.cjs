// @ts-check
// Where Electron's binary is, and Electron's own installer. Since Electron 42
// the binary is not fetched by npm's postinstall: its package downloads it at
// first use, and electron-vite reads node_modules/electron/path.txt without
// triggering that download. Whatever launches the app runs the installer first.
// Nothing here requires `electron` itself: that throws where the binary is missing.
// CommonJS, so the launch scripts, vitest and Playwright's specs can all load it.
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');

/** The repository root. */
const ROOT = path.resolve(__dirname, '../..');

function electronPackageDir(root = ROOT) {
  return path.dirname(createRequire(path.join(root, 'package.json')).resolve('electron/package.json'));
}

/** The executable's path inside the package, as Electron's installer names it for `platform`. */
function electronExecutableName(platform = process.platform) {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/** Where the binary is or will be once installed (for the AppArmor profile, which may be written first). */
function electronBinaryPath(root = ROOT, platform = process.platform) {
  return path.join(electronPackageDir(root), 'dist', electronExecutableName(platform));
}

/** The installed binary, found by its files alone; null when the installer has not run (or failed). */
function installedElectronBinary(root = ROOT) {
  const packageDir = electronPackageDir(root);
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const executable = path.join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : null;
}

const INSTALLER_FAILED =
  "Electron's installer could not install Electron's binary (its own error is above). Mino's window needs it; " +
  '`mino exec` and the tests do not. Check the network connection (behind a proxy, set ELECTRON_GET_USE_PROXY=1 ' +
  'and HTTPS_PROXY; to download from a mirror, set ELECTRON_MIRROR), then run the command again.';

/**
 * Runs Electron's installer (the package's `install-electron`), which returns at once when the
 * binary is there and otherwise downloads it. Its output goes to the person as it comes.
 * @param {{ root?: string, env?: NodeJS.ProcessEnv, stdio?: 'inherit' | 'pipe', timeoutMs?: number }} [options]
 * @returns {{ ok: boolean, status: number | null, stdout: string, stderr: string }}
 */
function runElectronInstaller({ root = ROOT, env = process.env, stdio = 'inherit', timeoutMs = 10 * 60_000 } = {}) {
  const installer = path.join(electronPackageDir(root), 'install.js');
  const result = spawnSync(process.execPath, [installer], { cwd: root, env, stdio, timeout: timeoutMs });
  return { ok: result.status === 0, status: result.status, stdout: result.stdout?.toString() ?? '', stderr: result.stderr?.toString() ?? '' };
}

module.exports = { ROOT, electronPackageDir, electronExecutableName, electronBinaryPath, installedElectronBinary, INSTALLER_FAILED, runElectronInstaller };
