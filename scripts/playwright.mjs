// @ts-check
// `npm run test:e2e`: Playwright, under a virtual X display (xvfb-run) on a
// Linux with no display, since the _electron specs open real windows. Where
// there is a display, or on macOS and Windows, Playwright runs as it is.
// Arguments are passed to `playwright test`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ROOT } from './lib/electron.cjs';
import { findOnPath } from './lib/findOnPath.mjs';

const cli = path.join(path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('@playwright/test/package.json')), 'cli.js');
const playwright = [process.execPath, cli, 'test', ...process.argv.slice(2)];
const headless = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const xvfbRun = headless ? findOnPath('xvfb-run') : null;
if (headless && xvfbRun === null) {
  console.error('No display and no xvfb-run: where Electron\'s binary is installed, the _electron specs cannot open windows (Debian and Ubuntu: apt install xvfb).');
}
const [command, ...args] = xvfbRun ? [xvfbRun, '--auto-servernum', '--server-args=-screen 0 1280x1024x24', ...playwright] : playwright;
const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
