// `mino exec` when its surroundings are broken rather than its input: a
// read-only ~/.mino, a full one, a file of it Mino cannot use, a working
// directory deleted under it. Each is the person's to fix, so each ends with
// a message saying what and exit 2, never "unexpected error" and a stack.
// The read-only and full folders are real: bubblewrap mounts ~/.mino
// read-only, or as a tiny tmpfs filled to the last byte, for the child alone.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureMinoHome } from '../../../src/main/core/config/minoHome';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { buildCli, type BuiltCli } from '../../support/builtCli';

let cli: BuiltCli;

beforeAll(async () => {
  cli = await buildCli();
}, 120_000);

afterAll(async () => cli?.remove());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(fx: AgentFixture, command: string, args: string[], cwd = fx.project): Promise<Run> {
  const child = spawn(command, args, { cwd, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function expectConfigurationProblem(result: Run, message: RegExp): void {
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
  expect(result.code).toBe(2);
}

describe('mino exec with a broken ~/.mino or working directory', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('a read-only ~/.mino: says the file system is read-only and what to do, exit 2, nothing asked of the model', async () => {
    fx = await makeAgentFixture();
    const mino = (await ensureMinoHome(fx.home)).root;
    fx.server.enqueue({ text: 'never sent' });
    const result = await run(fx, 'bwrap', ['--dev-bind', '/', '/', '--ro-bind', mino, mino, process.execPath, cli.entry, 'exec', 'hi']);
    expectConfigurationProblem(result, /Mino cannot use its folder .*\.mino: the file system is read-only.*Make .* writable/);
    expect(fx.server.requests).toHaveLength(0);
  });

  it('a full ~/.mino: says the disk is full, exit 2, and no turn runs', async () => {
    fx = await makeAgentFixture();
    const mino = (await ensureMinoHome(fx.home)).root;
    fx.server.enqueue({ text: 'never sent' });
    // A 64 KiB tmpfs over ~/.mino, filled before Mino starts.
    const fill = `mkdir -p "$1/sessions" && (cat /dev/zero > "$1/fill" 2>/dev/null || true) && shift && exec "$@"`;
    const result = await run(fx, 'bwrap', ['--dev-bind', '/', '/', '--size', '65536', '--tmpfs', mino, 'sh', '-c', fill, 'sh', mino, process.execPath, cli.entry, 'exec', 'hi']);
    expectConfigurationProblem(result, /the disk is full/);
    expect(fx.server.requests).toHaveLength(0);
  });

  it('a SOUL.md that is not a regular file: names it, exit 2', async () => {
    fx = await makeAgentFixture();
    const soul = (await ensureMinoHome(fx.home)).soul;
    await fs.mkdir(soul);
    fx.server.enqueue({ text: 'never sent' });
    const result = await run(fx, process.execPath, [cli.entry, 'exec', 'hi']);
    expectConfigurationProblem(result, /SOUL\.md is a directory, not a regular file/);
  });

  it('a deleted working directory: says so and how to go on, exit 2; with --project it runs', async () => {
    fx = await makeAgentFixture();
    const gone = path.join(fx.home, 'gone');
    await fs.mkdir(gone);
    const inGone = (args: string[]) => run(fx, 'sh', ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, process.execPath, cli.entry, ...args], fx.home);
    expectConfigurationProblem(await inGone(['exec', 'hi']), /The current directory no longer exists.*give --project with a full path/);

    await fs.mkdir(gone);
    fx.server.enqueue({ text: 'Hello.' });
    const withProject = await inGone(['exec', '--project', fx.project, 'hi']);
    expect(withProject.code).toBe(0);
    expect(withProject.stdout).toContain('Hello.');
  });
});

// bubblewrap is installed by .ci/run; say so plainly where it is missing instead of failing obscurely.
try {
  execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
} catch {
  throw new Error('These tests need bubblewrap (bwrap) to mount ~/.mino read-only or full: apt-get install bubblewrap.');
}
