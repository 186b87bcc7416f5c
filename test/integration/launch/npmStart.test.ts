// `npm start` and `npm run dev`, run for real: they run Electron's installer
// before anything else, and where it cannot fetch the binary they stop with its
// error and what to do, not with electron-vite's "Electron uninstall". The
// installer is pointed at a loopback mirror that has nothing, so this holds on
// any machine, with or without network, with or without the binary installed.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../../scripts/lib/electron.cjs';

let server: http.Server;
let requested: string[];
let scratch: string;

beforeEach(async () => {
  requested = [];
  server = http.createServer((request, response) => {
    requested.push(request.url ?? '');
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-npm-start-'));
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(scratch, { recursive: true, force: true });
});

function run(script: string): Promise<{ code: number | null; output: string }> {
  const { port } = server.address() as AddressInfo;
  const env = {
    ...process.env,
    ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
    // An empty download cache, and a binary location that does not exist, so the installer must download.
    electron_config_cache: path.join(scratch, 'cache'),
    ELECTRON_OVERRIDE_DIST_PATH: path.join(scratch, 'no-binary-here'),
  };
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.each(['start', 'dev'])('npm run %s', (script) => {
  it("runs Electron's installer first and stops with its error, before electron-vite is started", async () => {
    const { code, output } = await run(script);
    expect(code).not.toBe(0);
    // The installer asked the mirror for this Electron's build: it ran.
    expect(requested.some((url) => /electron-v45\.\d+\.\d+-\w+-\w+\.zip$/.test(url))).toBe(true);
    expect(output).toMatch(/HTTPError|404/);
    expect(output).toContain("Electron's installer could not install Electron's binary");
    expect(output).toContain('ELECTRON_MIRROR');
    // electron-vite never ran, so its own failure never shows.
    expect(output).not.toContain('Electron uninstall');
    expect(output).not.toMatch(/electron-vite|building|vite v\d/i);
  });
});
