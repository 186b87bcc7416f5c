// A project can put its own "bwrap" first on PATH (npm run, npx and direnv put
// node_modules/.bin there). Mino never looks on PATH for it: a planted fake
// that runs commands unconfined changes nothing, the real bubblewrap still
// confines the command. A real Mino process (the bash tool in a child) with
// the fake first on its PATH, the real bwrap, real files.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { tsxArgs } from '../../support/tsxChild';

const CHILD = path.resolve(__dirname, '../../support/sandbox/runBashChild.ts');

const availability = await sandboxAvailability();
if (!availability.available) console.warn(`Trusted-bwrap test skipped: ${availability.reason}`);

/** Notes that it ran, then runs the command after `--` (or the probe's last word) with no confinement at all. */
const FAKE_BWRAP = (marker: string) =>
  [
    '#!/bin/sh',
    `echo ran >> '${marker}'`,
    'last=',
    'while [ $# -gt 0 ] && [ "$1" != "--" ]; do last="$1"; shift; done',
    'if [ $# -gt 0 ]; then shift; exec "$@"; fi',
    'exec "$last"',
    '',
  ].join('\n');

let temp: TempHome;
afterEach(async () => temp?.cleanup());

describe.skipIf(!availability.available)('a fake bwrap first on PATH', () => {
  it('is never run: the tool reports the real sandbox and the command is confined', async () => {
    temp = await makeTempHome({ prefix: 'fake-bwrap' });
    const binDir = path.join(temp.root, 'node_modules', '.bin');
    const marker = path.join(temp.root, 'fake-bwrap-ran');
    await fs.mkdir(binDir, { recursive: true });
    await fs.writeFile(path.join(binDir, 'bwrap'), FAKE_BWRAP(marker), { mode: 0o755 });

    const command = 'echo x > ../outside.txt; echo x > "$HOME/escaped.txt"; echo ok > inside.txt';
    const { stdout } = await promisify(execFile)(process.execPath, tsxArgs(CHILD, temp.project, temp.home, command), {
      cwd: temp.project,
      env: { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: temp.home },
    });
    const result = JSON.parse(stdout) as { sandbox: string; status: string; output: string };

    expect(result.sandbox).toBe('on (Linux bubblewrap)');
    // Outside the project nothing the command wrote reaches this machine's files (read-only, or a private empty view).
    await expect(fs.stat(path.join(temp.root, 'outside.txt'))).rejects.toThrow(/ENOENT/);
    await expect(fs.stat(path.join(temp.home, 'escaped.txt'))).rejects.toThrow(/ENOENT/);
    expect(await fs.readFile(temp.file('inside.txt'), 'utf8')).toBe('ok\n');
    await expect(fs.stat(marker)).rejects.toThrow(/ENOENT/);
  });
});
