// Starts the built app in real Electron for a spec: a fresh HOME (so ~/.mino,
// the profile and the single-instance lock are the spec's own), and the
// environment and switches the spec asks for.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { APP_ROOT, requireElectronBinary } from './electronBinary';

export interface LaunchedMino {
  app: ElectronApplication;
  page: Page;
  home: string;
  binary: string;
  /** The arguments Electron was started with, to start a second instance the same way. */
  args: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Chromium refuses to start as root with its sandbox; only CI containers run as root. */
export const rootUser = () => typeof process.getuid === 'function' && process.getuid() === 0;

export async function launchMino(options: { home?: string; env?: Record<string, string>; args?: string[] } = {}): Promise<LaunchedMino> {
  const binary = requireElectronBinary();
  const home = options.home ?? (await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-electron-home-'))));
  const args = [...(rootUser() ? ['--no-sandbox'] : []), ...(options.args ?? []), APP_ROOT];
  // The profile (and with it the single-instance lock) lives under XDG_CONFIG_HOME when that is set:
  // pointed into the spec's HOME, so two specs' apps never take each other for a second launch.
  const env = { ...(process.env as Record<string, string>), HOME: home, XDG_CONFIG_HOME: `${home}/.config`, OPENAI_API_KEY: '', ...options.env };
  const app = await electron.launch({ executablePath: binary, args, env });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return {
    app,
    page,
    home,
    binary,
    args,
    env,
    async close() {
      await app.close();
      if (!options.home) await fs.rm(home, { recursive: true, force: true });
    },
  };
}
