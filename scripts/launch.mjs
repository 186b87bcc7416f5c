// @ts-check
// `npm start` and `npm run dev`: node scripts/launch.mjs <preview|dev> [Electron switches...]
//
// In order: Electron's installer (the binary is fetched at first use, never in
// npm's postinstall, so installs where it cannot be fetched still work); on
// Linux, a check that Chromium's sandbox can start, which prints what to do
// instead of letting Electron crash; then electron-vite, which builds and
// starts the app with the given switches (`npm start -- --no-sandbox`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { INSTALLER_FAILED, ROOT, electronBinaryPath, runElectronInstaller } from './lib/electron.cjs';
import { NO_SANDBOX_RISK, diagnoseChromiumSandbox, readSandboxFacts } from './lib/linuxSandbox.mjs';

export const MODES = ['preview', 'dev'];

/**
 * @param {{ mode: string, electronArgs: string[], platform: NodeJS.Platform,
 *   installElectron(): { ok: boolean }, diagnose(): { lines: string[] } | null,
 *   startElectronVite(mode: string, electronArgs: string[]): Promise<number>, print(line: string): void }} deps
 * @returns {Promise<number>} the exit code
 */
export async function launch(deps) {
  const { mode, electronArgs, print } = deps;
  if (!MODES.includes(mode)) {
    print(`usage: node scripts/launch.mjs <${MODES.join('|')}> [Electron switches...]`);
    return 2;
  }
  if (!deps.installElectron().ok) {
    print('');
    print(INSTALLER_FAILED);
    return 1;
  }
  const noSandbox = electronArgs.includes('--no-sandbox');
  if (deps.platform === 'linux' && !noSandbox) {
    const problem = deps.diagnose();
    if (problem !== null) {
      for (const line of problem.lines) print(line);
      return 1;
    }
  }
  if (noSandbox) print(`Starting without Chromium's sandbox (--no-sandbox). ${NO_SANDBOX_RISK}`);
  return deps.startElectronVite(mode, electronArgs);
}

/** @param {string} mode @param {string[]} electronArgs @returns {Promise<number>} */
function startElectronVite(mode, electronArgs) {
  const bin = path.join(path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  const args = [bin, mode, ...(electronArgs.length > 0 ? ['--', ...electronArgs] : [])];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    // electron-vite stops Electron on these; this process only has to outlive it.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => undefined);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(`Could not start electron-vite: ${error.message}`);
      resolve(1);
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [mode = '', ...electronArgs] = process.argv.slice(2);
  const binary = electronBinaryPath();
  const code = await launch({
    mode,
    electronArgs,
    platform: process.platform,
    installElectron: () => runElectronInstaller(),
    diagnose: () => diagnoseChromiumSandbox(readSandboxFacts(binary), { electronBinary: binary }),
    startElectronVite,
    print: (line) => console.error(line),
  });
  process.exit(code);
}
