// A sandboxed command cannot leave behind a git repository whose settings run
// outside the sandbox. Each case is an attack that worked: the command makes
// or swaps a repository with core.fsmonitor set to a payload, then the person
// runs `git status` (here the test, with this machine's git, outside any
// sandbox). The payload must not run, and the rest of what the command did
// must remain. Real bwrap, real git, real files.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { GIT_GUARD_REASON } from '../../../src/main/core/sandbox/gitGuard';
import { createBashTool } from '../../../src/main/core/tools/bash';
import { makeTempHome, type TempHome } from '../../support/tempHome';

const availability = await sandboxAvailability();
const gitVersion = (() => {
  try {
    return execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
})();
const skipReason = !availability.available ? availability.reason : gitVersion === null ? 'git is not installed on this machine' : null;
if (skipReason) console.warn(`Git guard sandbox tests skipped: ${skipReason}`);

let temp: TempHome;
afterEach(async () => temp?.cleanup());

/** This machine's git as the person runs it, with no settings of their own (HOME is the temp home). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, HOME: temp.home, GIT_CONFIG_NOSYSTEM: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** One sandboxed bash call through the tool, as the agent makes it. */
async function sandboxed(command: string, options: { timeoutMs?: number; stopOn?: string } = {}) {
  const tool = createBashTool(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  const validation = tool.validate({ command });
  if (!validation.ok) throw new Error(validation.reason);
  const stop = new AbortController();
  const stopOn = options.stopOn;
  const ctx = {
    projectDir: temp.project,
    homeDir: temp.home,
    ...(stopOn === undefined ? {} : { signal: stop.signal, onOutput: (chunk: string) => chunk.includes(stopOn) && stop.abort() }),
  };
  const inspection = await tool.inspect(validation.args, ctx);
  if (!inspection.ok) throw new Error('inspection failed');
  expect(inspection.confirmation.fields).toContainEqual({ label: 'Sandbox', value: 'on (Linux bubblewrap)' });
  return tool.execute(validation.args, inspection.state, ctx);
}

/** The payload: a marker file outside the project, written only if git runs the command's settings. */
const payload = () => `touch ${path.join(temp.root, 'MARK')}; false`;
const markWritten = () => fs.stat(path.join(temp.root, 'MARK')).then(() => true, () => false);

describe.skipIf(skipReason !== null)('the git guard after a sandboxed command', () => {
  it('removes a repository made in a package folder of a monorepo, whose own .git is above the project', async () => {
    temp = await makeTempHome({ prefix: 'guard-mono', files: { 'package.json': '{}\n' } });
    git(temp.root, 'init', '-q');
    const result = await sandboxed(`git init -q . && git config core.fsmonitor '${payload()}' && echo kept > kept.txt`);
    expect(result.output).toContain(GIT_GUARD_REASON);
    expect(result.output).toContain('removed .git');
    git(temp.project, 'status');
    expect(await markWritten()).toBe(false);
    expect(await fs.readFile(temp.file('kept.txt'), 'utf8')).toBe('kept\n');
  });

  it('takes HEAD from a package folder made to look like a bare repository, which git would take before the .git above', async () => {
    temp = await makeTempHome({ prefix: 'guard-bare', files: { 'package.json': '{}\n' } });
    git(temp.root, 'init', '-q');
    const config = `[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "${payload()}"\\n`;
    const result = await sandboxed(`mkdir objects refs && echo 'ref: refs/heads/main' > HEAD && printf '${config}' > config && echo kept > kept.txt`);
    expect(result.output).toContain('removed HEAD (it made git take . for a repository)');
    git(temp.project, 'status');
    expect(await markWritten()).toBe(false);
    expect(await fs.readFile(temp.file('kept.txt'), 'utf8')).toBe('kept\n');
    expect(await fs.readFile(temp.file('config'), 'utf8')).toContain('fsmonitor');
  });

  it('puts back a nested repository that was moved aside for a new one', async () => {
    temp = await makeTempHome({ prefix: 'guard-nested', files: { 'sub/code.txt': 'code\n' } });
    git(temp.project, 'init', '-q');
    git(temp.file('sub'), 'init', '-q');
    git(temp.file('sub'), 'add', 'code.txt');
    git(temp.file('sub'), 'commit', '-qm', 'first');
    const result = await sandboxed(`mv sub sub_old; mkdir sub; git init -q sub; git -C sub config core.fsmonitor '${payload()}'; echo kept > kept.txt`);
    git(temp.file('sub'), 'status');
    git(temp.project, 'status');
    expect(await markWritten()).toBe(false);
    expect(await fs.readFile(temp.file('kept.txt'), 'utf8')).toBe('kept\n');
    // The person's repository is where it was, with its history.
    expect(git(temp.file('sub'), 'log', '--format=%s').trim()).toBe('first');
    expect(result.status).not.toBe('denied');
  });

  it('puts back a submodule whose gitdir: file was pointed at a copy with the payload', async () => {
    temp = await makeTempHome({ prefix: 'guard-submodule' });
    const origin = path.join(temp.root, 'origin');
    await fs.mkdir(origin);
    git(origin, 'init', '-q');
    await fs.writeFile(path.join(origin, 'lib.txt'), 'lib\n');
    git(origin, 'add', 'lib.txt');
    git(origin, 'commit', '-qm', 'lib');
    git(temp.project, 'init', '-q');
    git(temp.project, 'submodule', '--quiet', 'add', origin, 'sm');
    git(temp.project, 'commit', '-qm', 'with sm');
    const command = [
      'mv sm sm_old',
      'cp -a .git/modules/sm .evilgit',
      'mkdir sm',
      "echo 'gitdir: ../.evilgit' > sm/.git",
      'git config -f .evilgit/config core.worktree ../sm',
      `git config -f .evilgit/config core.fsmonitor '${payload()}'`,
      'echo kept > kept.txt',
    ].join('; ');
    await sandboxed(command);
    git(temp.project, 'status');
    git(temp.file('sm'), 'status');
    expect(await markWritten()).toBe(false);
    expect(await fs.readFile(temp.file('kept.txt'), 'utf8')).toBe('kept\n');
    expect(git(temp.file('sm'), 'log', '--format=%s').trim()).toBe('lib');
  });

  it.each([
    ['stopped', { stopOn: 'ready' }],
    ['timed out', { timeoutMs: 3_000 }],
  ] as const)('undoes it as well when the command is %s', async (_ending, options) => {
    temp = await makeTempHome({ prefix: 'guard-ending' });
    const result = await sandboxed(`mkdir .git && printf '[core]\\n\\tfsmonitor = "${payload()}"\\n' > .git/config && echo ready && sleep 60`, options);
    expect(result.status).toBe('failed');
    expect(result.output).toContain('removed .git (a repository the command made or changed)');
    expect(await fs.stat(temp.file('.git')).then(() => true, () => false)).toBe(false);
  });
});
