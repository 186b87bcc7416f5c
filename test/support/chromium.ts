// Which Chromium Playwright drives: CHROMIUM_PATH, else Debian's
// /usr/bin/chromium (CI installs it with apt), else Playwright's own browser.
import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

export function chromiumLaunchOptions(env: NodeJS.ProcessEnv = process.env): LaunchOptions {
  const executablePath = findChromium(env);
  return { ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS };
}
