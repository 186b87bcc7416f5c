// The git guard on its own: the project is changed here, in this process, as
// a sandboxed command could change it (the sandbox's own tests run the real
// attacks through bwrap), then the guard undoes what it must. Real folders,
// real git.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitGuardNote, watchGitRepositories, type GitGuardLimits } from '../../../src/main/core/sandbox/gitGuard';
import { GitSettingsLimitError } from '../../../src/main/core/sandbox/gitSettings';
import { ProjectTooLargeError } from '../../../src/main/core/sandbox/projectWalk';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { agedWalk, pastNewestStamp } from './support/agedWalk';

const HAS_GIT = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!HAS_GIT) console.warn('Git guard tests that need git skipped: git is not installed');

let temp: TempHome;
let project: string;
beforeEach(async () => {
  temp = await makeTempHome({ prefix: 'git-guard' });
  project = temp.project;
});
afterEach(async () => temp.cleanup());

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const inode = async (file: string) => (await fs.lstat(file)).ino;
const exists = (file: string) => fs.lstat(file).then(() => true, () => false);

/**
 * Each case runs twice: on the tree as just made, whose every folder the
 * check after the command reads again (its stamps are too recent to trust),
 * and on the tree as if it were old (support/agedWalk.ts), where the check
 * reads only the folders whose stamp moved.
 */
describe.each([
  ['as just made', false],
  ['as if long made', true],
] as const)('the git guard, on a tree %s', (_tree, aged) => {
  /** The guard, set up as the bash tool sets it up before a command. */
  const watch = async (limits: GitGuardLimits = {}) => {
    if (!aged) return watchGitRepositories(project, limits);
    const walk = await agedWalk(project, { maxEntries: limits.maxEntriesBefore });
    const guard = await watchGitRepositories(project, { ...limits, walk });
    await pastNewestStamp(walk, temp.root);
    return guard;
  };

  it.skipIf(!HAS_GIT)('removes a new .git and keeps the rest of what the command did', async () => {
    const guard = await watch();
    git(project, 'init', '-q');
    git(project, 'config', 'core.fsmonitor', 'touch MARK; false');
    await temp.write('src/kept.txt', 'kept\n');
    const report = await guard.undo();
    expect(report).toEqual({ undone: ['removed .git (a repository the command made or changed)'], problems: [] });
    expect(await exists(temp.file('.git'))).toBe(false);
    expect(await fs.readFile(temp.file('src/kept.txt'), 'utf8')).toBe('kept\n');
    const note = gitGuardNote(report)!;
    expect(note).toContain('a sandboxed command may not create or move a git repository: git would run its settings outside the sandbox on your next git command');
    expect(note).toContain('call bash with "sandbox": false');
    expect(note).toContain('removed .git');
  });

  it.skipIf(!HAS_GIT)('moves a nested repository moved away back, in place of the one made there', async () => {
    git(project, 'init', '-q', 'sub');
    await temp.write('sub/code.txt', 'code\n');
    const original = await inode(temp.file('sub/.git'));
    const guard = await watch();
    await fs.rename(temp.file('sub'), temp.file('sub_old'));
    git(project, 'init', '-q', 'sub');
    git(temp.file('sub'), 'config', 'core.fsmonitor', 'touch MARK; false');
    const report = await guard.undo();
    expect(report.problems).toEqual([]);
    expect(report.undone).toEqual(['removed sub/.git (a repository the command made or changed)', 'moved sub_old/.git back to sub/.git']);
    expect(await inode(temp.file('sub/.git'))).toBe(original);
    expect(await fs.readFile(temp.file('sub/.git/config'), 'utf8')).not.toContain('fsmonitor');
    expect(await fs.readFile(temp.file('sub_old/code.txt'), 'utf8')).toBe('code\n');
  });

  it('moves back an original hidden inside a new .git instead of removing it with it', async () => {
    await temp.write('sub/.git/config', '[core]\n');
    const guard = await watch();
    await fs.mkdir(temp.file('x/.git'), { recursive: true });
    await fs.rename(temp.file('sub'), temp.file('x/.git/sub'));
    const report = await guard.undo();
    expect(report.undone).toEqual(['removed x/.git (a repository the command made or changed)', 'moved x/.git/sub/.git back to sub/.git']);
    expect(await fs.readFile(temp.file('sub/.git/config'), 'utf8')).toBe('[core]\n');
    expect(await exists(temp.file('x'))).toBe(true);
  });

  it('restores a rewritten gitdir: file, and removes a new one', async () => {
    await temp.write('.git/modules/sm/config', '[core]\n');
    await temp.write('sm/.git', 'gitdir: ../.git/modules/sm\n');
    const guard = await watch();
    await fs.writeFile(temp.file('sm/.git'), 'gitdir: ../.evilgit\n');
    await temp.write('other/.git', 'gitdir: ../.evilgit\n');
    const report = await guard.undo();
    expect(report.undone.sort()).toEqual(['removed other/.git (a repository the command made or changed)', 'restored sm/.git']);
    expect(await fs.readFile(temp.file('sm/.git'), 'utf8')).toBe('gitdir: ../.git/modules/sm\n');
  });

  it('takes HEAD from a folder made to look like a bare repository, even the project itself', async () => {
    const guard = await watch();
    for (const dir of ['objects', 'refs', '.evilgit/objects', '.evilgit/refs']) await fs.mkdir(temp.file(dir), { recursive: true });
    for (const head of ['HEAD', '.evilgit/HEAD']) await temp.write(head, 'ref: refs/heads/main\n');
    await temp.write('config', '[core]\n\tworktree = .\n\tfsmonitor = "touch MARK; false"\n');
    const report = await guard.undo();
    expect(report.undone.sort()).toEqual([
      'removed .evilgit/HEAD (it made git take .evilgit for a repository)',
      'removed HEAD (it made git take . for a repository)',
    ]);
    expect(await exists(temp.file('config'))).toBe(true);
  });

  it("restores a repository's config, hooks and attributes, and removes new hooks", async () => {
    await temp.write('.git/config', '[core]\n\tbare = false\n');
    await temp.write('.git/hooks/pre-commit.sample', '#!/bin/sh\n');
    await temp.write('.git/HEAD', 'ref: refs/heads/main\n');
    const guard = await watch();
    await fs.appendFile(temp.file('.git/config'), '\tfsmonitor = "touch MARK; false"\n');
    await temp.write('.git/hooks/post-checkout', '#!/bin/sh\ntouch MARK\n');
    await fs.chmod(temp.file('.git/hooks/pre-commit.sample'), 0o755);
    await temp.write('.git/info/attributes', '* filter=evil\n');
    const report = await guard.undo();
    expect(report.problems).toEqual([]);
    expect(report.undone.sort()).toEqual(['removed .git/hooks/post-checkout', 'removed .git/info/attributes', 'restored .git/config', 'restored .git/hooks/pre-commit.sample']);
    expect(await fs.readFile(temp.file('.git/config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect((await fs.stat(temp.file('.git/hooks/pre-commit.sample'))).mode & 0o777).toBe(0o644);
    expect(await exists(temp.file('.git/info'))).toBe(true);
  });

  it('puts hooks/ back as a folder when it was swapped for a link, writing nothing through the link', async () => {
    await temp.write('.git/config', '[core]\n');
    await temp.write('.git/hooks/pre-push', '#!/bin/sh\n');
    const outside = path.join(temp.root, 'outside');
    await fs.mkdir(outside);
    const guard = await watch();
    await fs.rm(temp.file('.git/hooks'), { recursive: true });
    await fs.symlink(outside, temp.file('.git/hooks'));
    const report = await guard.undo();
    expect(report.undone).toEqual(['restored .git/hooks', 'restored .git/hooks/pre-push']);
    expect((await fs.lstat(temp.file('.git/hooks'))).isDirectory()).toBe(true);
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('refuses, before the command, a project too large to walk or whose settings are too large to keep', async () => {
    for (let i = 0; i < 5; i += 1) await temp.write(`f${i}`, '');
    await expect(watch({ maxEntriesBefore: 3 })).rejects.toBeInstanceOf(ProjectTooLargeError);
    await temp.write('.git/config', 'x'.repeat(2000));
    await expect(watch({ maxKeptBytes: 1000 })).rejects.toThrow(GitSettingsLimitError);
    await expect(watch({ maxKeptBytes: 1000 })).rejects.toThrow(/more than 1000 bytes of settings and hooks/);
  });

  it('says it cannot vouch when the command left more entries than the walk after it may visit', async () => {
    const guard = await watch({ maxEntriesAfter: 10 });
    for (let i = 0; i < 20; i += 1) await temp.write(`many/f${i}`, '');
    const report = await guard.undo();
    expect(report.problems).toEqual([expect.stringMatching(/could not be searched .* more than 10 files and folders/)]);
    expect(gitGuardNote(report)).toMatch(/Mino cannot vouch that git in this project runs only your own settings/);
  });

  it('says nothing when no repository changed', async () => {
    await temp.write('.git/config', '[core]\n');
    const guard = await watch();
    await temp.write('a.txt', 'a\n');
    const report = await guard.undo();
    expect(report).toEqual({ undone: [], problems: [] });
    expect(gitGuardNote(report)).toBeNull();
  });
});
