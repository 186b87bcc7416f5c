// The git guard's cheap check after a command: only the folders whose stamp
// moved are read again (and only the settings files whose stamp moved), and
// nothing it must undo hides in the rest. The project is changed here, in
// this process, as a sandboxed command could change it. Real folders on the
// real disk.
//
// Each walk is aged (support/agedWalk.ts), so the folders the "command"
// leaves alone look as old as a real project's and the cheap path runs.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitGuardNote, watchGitRepositories } from '../../../src/main/core/sandbox/gitGuard';
import { recheckRepositories, unchangedSince } from '../../../src/main/core/sandbox/gitRecheck';
import { restoreRepositorySettings, saveRepositorySettings, type RestoreReport } from '../../../src/main/core/sandbox/gitSettings';
import { SAME_TICK_MARGIN_NS, type FolderStamp, type ProjectWalk } from '../../../src/main/core/sandbox/projectWalk';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { agedWalk, HOUR_NS, pastNewestStamp, pastStamp } from './support/agedWalk';

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome({ prefix: 'git-recheck' });
});
afterEach(async () => temp.cleanup());

/** The folders the check read, project-relative and sorted; like the guard, it looks into a `.git` folder only when it is new. */
async function foldersRead(walk: ProjectWalk): Promise<string[]> {
  const known = new Set(walk.repositories.map((entry) => entry.id));
  const { read } = await recheckRepositories(walk, { maxEntries: 1000, enterDotGit: (entry) => !known.has(entry.id) });
  return read.map((dir) => path.relative(temp.project, dir) || '.').sort();
}

const stampOf = async (rel: string): Promise<FolderStamp> => {
  const stat = await fs.lstat(temp.file(rel), { bigint: true });
  return { id: `${stat.dev}:${stat.ino}`, ctimeNs: stat.ctimeNs, mtimeNs: stat.mtimeNs };
};
const exists = (file: string) => fs.lstat(file).then(() => true, () => false);

describe('whether a folder must be read again', () => {
  const walkStart = 100n * HOUR_NS;
  const old: FolderStamp = { id: '1:2', ctimeNs: walkStart - HOUR_NS, mtimeNs: walkStart - HOUR_NS };

  it('is not when its device, inode, ctime and mtime are as recorded, well before the walk', () => {
    expect(unchangedSince(old, { ...old }, walkStart)).toBe(true);
  });

  it.each([
    ['another folder took its place', { ...old, id: '1:3' }],
    ['an entry was made, removed or renamed in it', { ...old, ctimeNs: old.ctimeNs + 1n }],
    ['its mtime moved', { ...old, mtimeNs: old.mtimeNs + 1n }],
    ['it is gone', 'gone'],
    ['it cannot be looked at', 'denied'],
  ] as const)('is when %s', (_why, now) => {
    expect(unchangedSince(old, now, walkStart)).toBe(false);
  });

  it('is when it could not be stamped before', () => {
    expect(unchangedSince(null, old, walkStart)).toBe(false);
  });

  it('is when its stamp is not clearly older than the walk, however unchanged it looks', () => {
    const recent = { ...old, ctimeNs: walkStart - SAME_TICK_MARGIN_NS };
    expect(unchangedSince(recent, { ...recent }, walkStart)).toBe(false);
    const older = { ...old, ctimeNs: walkStart - SAME_TICK_MARGIN_NS - 1n };
    expect(unchangedSince(older, { ...older }, walkStart)).toBe(true);
  });
});

describe('the check after a command', () => {
  it('reads only what changed, and finds a .git made deep in a new folder of an unchanged-looking tree', async () => {
    await temp.write('.git/config', '[core]\n');
    await temp.write('a/b/c/code.txt', 'code\n');
    await temp.write('x/y/z/code.txt', 'code\n');
    const walk = await agedWalk(temp.project);
    const guard = await watchGitRepositories(temp.project, { walk });
    await pastNewestStamp(walk, temp.root);
    await temp.write('a/b/new/deeper/.git/config', '[core]\n\tfsmonitor = "touch MARK; false"\n');
    await temp.write('x/y/z/changed.txt', 'a file, not a folder: z changes, nothing under it is read\n');
    expect(await foldersRead(walk)).toEqual(['a/b', 'a/b/new', 'a/b/new/deeper', 'a/b/new/deeper/.git', 'x/y/z']);
    const report = await guard.undo();
    expect(report).toEqual({ undone: ['removed a/b/new/deeper/.git (a repository the command made or changed)'], problems: [] });
    expect(await exists(temp.file('a/b/new/deeper'))).toBe(true);
    expect(await exists(temp.file('x/y/z/changed.txt'))).toBe(true);
  });

  it('reads nothing when nothing changed, yet still restores a .git file rewritten in place', async () => {
    await temp.write('.git/modules/sm/config', '[core]\n');
    await temp.write('sm/.git', 'gitdir: ../.git/modules/sm\n');
    const walk = await agedWalk(temp.project);
    const guard = await watchGitRepositories(temp.project, { walk });
    await pastNewestStamp(walk, temp.root);
    // Written over, not replaced: sm keeps its stamp.
    await fs.writeFile(temp.file('sm/.git'), 'gitdir: ../.evilgit\n');
    expect(await foldersRead(walk)).toEqual([]);
    expect((await guard.undo()).undone).toEqual(['restored sm/.git']);
    expect(await fs.readFile(temp.file('sm/.git'), 'utf8')).toBe('gitdir: ../.git/modules/sm\n');
  });

  it('puts back a repository whose folder was renamed into another folder, reading only the two folders and the one moved in', async () => {
    await temp.write('x/sub/.git/config', '[core]\n');
    await temp.write('x/sub/code.txt', 'code\n');
    await temp.write('y/other.txt', 'other\n');
    await temp.write('elsewhere/deep/code.txt', 'code\n');
    const original = (await fs.lstat(temp.file('x/sub/.git'))).ino;
    const walk = await agedWalk(temp.project);
    const guard = await watchGitRepositories(temp.project, { walk });
    await pastNewestStamp(walk, temp.root);
    await fs.rename(temp.file('x/sub'), temp.file('y/sub2'));
    expect(await foldersRead(walk)).toEqual(['x', 'y', 'y/sub2']);
    const report = await guard.undo();
    expect(report).toEqual({ undone: ['moved y/sub2/.git back to x/sub/.git'], problems: [] });
    expect((await fs.lstat(temp.file('x/sub/.git'))).ino).toBe(original);
    expect(await fs.readFile(temp.file('y/sub2/code.txt'), 'utf8')).toBe('code\n');
  });

  it('reads a folder removed and made again at the same path, whatever inode it got, and removes the .git made in it', async () => {
    await temp.write('a/b/code.txt', 'code\n');
    await temp.write('a/b/inner/code.txt', 'code\n');
    const walk = await agedWalk(temp.project);
    const guard = await watchGitRepositories(temp.project, { walk });
    await pastNewestStamp(walk, temp.root);
    await fs.rm(temp.file('a/b'), { recursive: true });
    await fs.mkdir(temp.file('a/b'));
    // A folder at a path the walk recorded: it is checked by its stamp, not taken for new.
    await fs.mkdir(temp.file('a/b/inner'));
    await temp.write('a/b/inner/.git/config', '[core]\n\tfsmonitor = "touch MARK; false"\n');
    expect(await foldersRead(walk)).toEqual(['a', 'a/b', 'a/b/inner', 'a/b/inner/.git']);
    expect((await guard.undo()).undone).toEqual(['removed a/b/inner/.git (a repository the command made or changed)']);
    expect(await exists(temp.file('a/b/inner'))).toBe(true);
  });

  it('reads a folder whose stamp is within the margin of the walk, even when the stamp did not move', async () => {
    await temp.write('a/code.txt', 'code\n');
    const walk = await agedWalk(temp.project);
    const guard = await watchGitRepositories(temp.project, { walk });
    await pastNewestStamp(walk, temp.root);
    await temp.write('a/.git/config', '[core]\n\tfsmonitor = "touch MARK; false"\n');
    // As if the walk had stamped `a` in the very clock tick of this change: the stamps before and after agree.
    const record = walk.folders.get(temp.file('a'))!;
    record.stamp = await stampOf('a');
    // Stamped that close to the walk's start, `a` is read however unchanged it looks (as may be others made as recently)...
    walk.startedAtNs = record.stamp.ctimeNs + SAME_TICK_MARGIN_NS / 2n;
    expect(await foldersRead(walk)).toEqual(expect.arrayContaining(['a', 'a/.git']));
    // ...where a stamp clearly older would be believed, and the new .git missed: the margin is what finds it.
    walk.startedAtNs = record.stamp.ctimeNs + HOUR_NS;
    expect(await foldersRead(walk)).toEqual([]);
    walk.startedAtNs = record.stamp.ctimeNs + SAME_TICK_MARGIN_NS / 2n;
    const report = await guard.undo();
    expect(report.undone).toEqual(['removed a/.git (a repository the command made or changed)']);
    expect(gitGuardNote(report)).toContain('removed a/.git');
  });

  it('finds a folder made to look like a bare repository in an unchanged-looking tree', async () => {
    await temp.write('pkg/lib/code.txt', 'code\n');
    await temp.write('pkg/other/code.txt', 'code\n');
    const walk = await agedWalk(temp.project);
    const guard = await watchGitRepositories(temp.project, { walk });
    await pastNewestStamp(walk, temp.root);
    for (const dir of ['pkg/lib/objects', 'pkg/lib/refs']) await fs.mkdir(temp.file(dir));
    await temp.write('pkg/lib/HEAD', 'ref: refs/heads/main\n');
    expect(await foldersRead(walk)).toEqual(['pkg/lib', 'pkg/lib/objects', 'pkg/lib/refs']);
    expect((await guard.undo()).undone).toEqual(['removed pkg/lib/HEAD (it made git take pkg/lib for a repository)']);
  });
});

describe("the check of a repository's settings after a command", () => {
  const CONFIG = '[core]\n\tbare = false\n';
  const FORGED = '[core]\n\tfsmon = "xy"\n';

  /** The settings of the project's .git kept as the guard keeps them, as if the walk had begun `age` after they were written. */
  async function keep(age: bigint) {
    const written = (await fs.lstat(temp.file('.git/config'), { bigint: true })).ctimeNs;
    return saveRepositorySettings(temp.file('.git'), { limit: 1 << 20, bytes: 1 << 20 }, written + age);
  }
  async function restore(saved: Awaited<ReturnType<typeof keep>>): Promise<RestoreReport> {
    const report: RestoreReport = { undone: [], problems: [] };
    await restoreRepositorySettings(saved, temp.project, report);
    return report;
  }
  /** Rewrites .git/config in place with text of the same length, after the clock has ticked past its stamp. */
  async function forge(): Promise<void> {
    expect(FORGED.length).toBe(CONFIG.length);
    await pastStamp((await fs.lstat(temp.file('.git/config'), { bigint: true })).ctimeNs, temp.root);
    await fs.writeFile(temp.file('.git/config'), FORGED);
  }

  it('puts back a settings file rewritten in place with text of the same size', async () => {
    await temp.write('.git/config', CONFIG);
    const saved = await keep(HOUR_NS);
    await forge();
    expect((await restore(saved)).undone).toEqual(['restored .git/config']);
    expect(await fs.readFile(temp.file('.git/config'), 'utf8')).toBe(CONFIG);
  });

  it('reads a settings file whose stamp is within the margin of the walk, even when the stamp did not move', async () => {
    await temp.write('.git/config', CONFIG);
    const saved = await keep(HOUR_NS);
    await forge();
    // As if it had been kept in the very clock tick of this change: the stamps before and after agree.
    const kept = saved.entries.get('config');
    if (kept?.type !== 'file') throw new Error('config was not kept as a file');
    const now = await fs.lstat(temp.file('.git/config'), { bigint: true });
    Object.assign(kept, { stamp: `${now.dev}:${now.ino}:${now.size}:${now.ctimeNs}:${now.mtimeNs}`, ctimeNs: now.ctimeNs });
    // A stamp clearly older than the walk would be believed, and the forged text kept: the margin is what finds it.
    expect((await restore({ ...saved, startedAtNs: now.ctimeNs + HOUR_NS })).undone).toEqual([]);
    expect((await restore({ ...saved, startedAtNs: now.ctimeNs + SAME_TICK_MARGIN_NS / 2n })).undone).toEqual(['restored .git/config']);
    expect(await fs.readFile(temp.file('.git/config'), 'utf8')).toBe(CONFIG);
  });
});
