// Git runs settings from the repository it finds (core.fsmonitor, hooks,
// filters, ...) with the person's full rights, and it finds one by looking for
// `.git` (or a bare repository) in the folder it runs in and every folder
// above. The sandbox shows the `.git` entries a command starts with
// read-only, but a command can still make a new one (a package folder of a
// monorepo has none of its own), move one away and put its own in its place,
// or point a `gitdir:` file at a copy it controls; the person's next `git
// status` would then run the command's settings outside any sandbox.
//
// So before a sandboxed command every repository entry of the project, and
// the settings and hooks of every repository kept in it, are noted (from the
// one walk the sandbox's plan shares: projectWalk.ts); afterwards, before the
// result is returned, the folders the command changed are read again
// (gitRecheck.ts), whatever is new is removed, whatever was moved is put back,
// and whatever changed is restored. Everything else the command did stays.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { recheckRepositories } from './gitRecheck';
import { codeOf, isSameOrInside, type RepositoryEntry } from './gitWalk';
import { MAX_KEPT_BYTES, realFolderProblem, restoreRepositorySettings, saveRepositorySettings, type RestoreReport } from './gitSettings';
import { MAX_ENTRIES, walkProject, type ProjectWalk } from './projectWalk';

export interface GitGuardLimits {
  /** Entries the walk before the command may visit (default MAX_ENTRIES, as the sandbox's own search); more and the command is not run. */
  maxEntriesBefore?: number;
  /** Entries the folders read again after it may hold (a command may add many: npm install); more and the guard says it cannot vouch. */
  maxEntriesAfter?: number;
  /** Bytes of settings and hooks kept for the whole project (default MAX_KEPT_BYTES); more and the command is not run. */
  maxKeptBytes?: number;
}

export interface GitGuardOptions extends GitGuardLimits {
  /** The walk of the project (or the walk under way), shared with the sandbox's plan so the project is walked once; when absent the guard walks it. */
  walk?: ProjectWalk | Promise<ProjectWalk>;
}

/** What the guard undid, and what it could not check or undo: then it cannot vouch for the project. */
export type GitGuardReport = RestoreReport;

export interface GitWatch {
  /** Undoes the command's changes to the project's repositories; never throws (a failure is a problem in the report). */
  undo(): Promise<GitGuardReport>;
}

/** The folders read again after a command may hold this many times the walk's limit: a command may add many entries (npm install). */
const AFTER_FACTOR = 4;

/**
 * Notes the repository entries of `projectDir` and keeps its repositories'
 * settings. Throws (ProjectTooLargeError, GitSettingsLimitError, a read
 * error) when it cannot: the command must not run then.
 */
export async function watchGitRepositories(projectDir: string, options: GitGuardOptions = {}): Promise<GitWatch> {
  const maxBefore = options.maxEntriesBefore ?? MAX_ENTRIES;
  const walk = await (options.walk ?? walkProject(projectDir, { maxEntries: maxBefore }));
  const project = walk.root;
  if (options.walk && project !== (await fs.realpath(projectDir))) throw new Error(`the walk given to the git guard is of ${project}, not of the project ${projectDir}`);
  const keep = options.maxKeptBytes ?? MAX_KEPT_BYTES;
  const budget = { limit: keep, bytes: keep };
  const settings = await Promise.all((await gitFoldersOf(walk.repositories, project)).map((gitDir) => saveRepositorySettings(gitDir, budget, walk.startedAtNs)));
  const known = new Set(walk.repositories.map((entry) => entry.id));
  return {
    undo: async () => {
      const report: GitGuardReport = { undone: [], problems: [] };
      try {
        // A `.git` folder that is not one from before is looked into: a moved original may be hidden inside it.
        const after = await recheckRepositories(walk, { maxEntries: options.maxEntriesAfter ?? maxBefore * AFTER_FACTOR, enterDotGit: (entry) => !known.has(entry.id) });
        await undoEntries(project, walk.repositories, after.repositories, report);
      } catch (error) {
        report.problems.push(`the project could not be searched for repositories the command made or moved (${codeOf(error)})`);
      }
      for (const saved of settings) {
        try {
          await restoreRepositorySettings(saved, project, report);
        } catch (error) {
          report.problems.push(`the settings of ${shown(project, saved.gitDir)} could not be checked (${codeOf(error)})`);
        }
      }
      return report;
    },
  };
}

/**
 * The git folders, inside the project, that its repository entries lead to:
 * each `.git` folder and bare repository, what a `gitdir:` file or a `.git`
 * link points at, and each one's common folder (a worktree's or a
 * submodule's shares its settings with it). Those outside the project are the
 * sandbox's to keep read-only.
 */
async function gitFoldersOf(entries: readonly RepositoryEntry[], project: string): Promise<string[]> {
  const found = new Set<string>();
  const add = async (candidate: string | null) => {
    const real = candidate === null ? null : await fs.realpath(candidate).catch(() => null);
    if (real === null || !isSameOrInside(real, project) || found.has(real)) return;
    if (!(await fs.stat(real).catch(() => null))?.isDirectory()) return;
    found.add(real);
    const common = await fs.readFile(path.join(real, 'commondir'), 'utf8').catch(() => null);
    if (common !== null && common.trim() !== '') await add(path.resolve(real, common.trim()));
  };
  for (const entry of entries) {
    if (entry.type === 'file') await add(gitdirTarget(entry));
    else await add(entry.path);
  }
  return [...found].sort();
}

/** Where a `gitdir:` file points, or null when it is not one. */
function gitdirTarget(entry: RepositoryEntry): string | null {
  const match = /^gitdir: ?(.+)$/m.exec(entry.content ?? '');
  return match ? path.resolve(path.dirname(entry.path), match[1]!.trim()) : null;
}

interface Changes {
  /** Originals found elsewhere (by identity), to go back where they were. */
  moved: Array<{ original: RepositoryEntry; at: string }>;
  /** `.git` files at their place whose text changed (a `gitdir:` line pointed elsewhere). */
  rewritten: RepositoryEntry[];
  /** Entries that were not there before: a `.git` to remove, or a folder git would take for a repository. */
  added: RepositoryEntry[];
}

/** What happened to the repository entries between the two walks. */
export function classifyChanges(before: readonly RepositoryEntry[], after: readonly RepositoryEntry[]): Changes {
  const beforeAt = new Map(before.map((entry) => [`${entry.kind}\0${entry.path}`, entry]));
  const beforeById = new Map(before.map((entry) => [entry.id, entry]));
  const inPlace = new Set<string>();
  const changed: RepositoryEntry[] = [];
  for (const entry of after) {
    const was = beforeAt.get(`${entry.kind}\0${entry.path}`);
    if (was && was.id === entry.id && was.type === entry.type && was.content === entry.content) inPlace.add(entry.id);
    else changed.push(entry);
  }
  const changes: Changes = { moved: [], rewritten: [], added: [] };
  for (const entry of changed) {
    const original = beforeById.get(entry.id);
    if (original && original.path === entry.path && original.type === 'file' && entry.type === 'file') changes.rewritten.push(original);
    // By identity, whatever its name now: a bare repository renamed `.git` is still the person's, and goes back.
    else if (original && original.type === entry.type && !inPlace.has(entry.id) && !changes.moved.some((m) => m.original === original)) changes.moved.push({ original, at: entry.path });
    else changes.added.push(entry);
  }
  return changes;
}

/** Undoes `classifyChanges`'s findings, in the order that keeps a moved original safe: set it aside, clear what is new, put it back. */
async function undoEntries(project: string, before: readonly RepositoryEntry[], after: readonly RepositoryEntry[], report: RestoreReport): Promise<void> {
  const shown = (entry: string) => path.relative(project, entry) || '.';
  const { moved, rewritten, added } = classifyChanges(before, after);
  // Set every moved original aside first: it may sit inside a new `.git` about to be removed.
  const aside: Array<{ original: RepositoryEntry; at: string; held: string }> = [];
  for (const { original, at } of moved) {
    const held = path.join(project, `.mino-git-guard-${randomUUID()}`);
    try {
      await fs.rename(at, held);
      aside.push({ original, at, held });
    } catch (error) {
      report.problems.push(`${shown(at)} (moved from ${shown(original.path)}) could not be moved back (${codeOf(error)})`);
    }
  }
  const removedDirs = added.filter((entry) => entry.kind === 'dotgit').map((entry) => entry.path);
  for (const entry of added) {
    // Whatever lies inside a new `.git` goes with it.
    if (removedDirs.some((dir) => dir !== entry.path && isSameOrInside(entry.path, dir))) continue;
    try {
      if (entry.kind === 'dotgit') {
        await fs.rm(entry.path, { recursive: true, force: true });
        report.undone.push(`removed ${shown(entry.path)} (a repository the command made or changed)`);
      } else {
        await fs.rm(path.join(entry.path, entry.head ?? 'HEAD'), { recursive: true, force: true });
        report.undone.push(`removed ${shown(path.join(entry.path, entry.head ?? 'HEAD'))} (it made git take ${shown(entry.path)} for a repository)`);
      }
    } catch (error) {
      report.problems.push(`${shown(entry.path)} could not be removed (${codeOf(error)})`);
    }
  }
  for (const original of rewritten) {
    try {
      await fs.rm(original.path, { force: true });
      // A pointer longer than a `.git` file ever is was kept as its size only: then it is removed, not rewritten.
      if (!original.content?.startsWith('(')) await fs.writeFile(original.path, original.content ?? '', { flag: 'wx' });
      report.undone.push(`restored ${shown(original.path)}`);
    } catch (error) {
      report.problems.push(`${shown(original.path)} could not be restored (${codeOf(error)})`);
    }
  }
  for (const { original, at, held } of aside) await putBack(project, original, at, held, report);
}

/** Moves a set-aside original to where it was before the command, making the folders on the way if they are gone. */
async function putBack(project: string, original: RepositoryEntry, at: string, held: string, report: RestoreReport): Promise<void> {
  const shown = (entry: string) => path.relative(project, entry) || '.';
  try {
    await makeRealFolders(path.dirname(original.path), project);
    await fs.rm(original.path, { recursive: true, force: true });
    await fs.rename(held, original.path);
    report.undone.push(`moved ${shown(at)} back to ${shown(original.path)}`);
  } catch (error) {
    const back = await fs.rename(held, at).then(
      () => at,
      () => held,
    );
    report.problems.push(`${shown(original.path)} could not be put back (${codeOf(error)}); it is at ${shown(back)}`);
  }
}

/** Makes `dir` and the folders above it up to the project, refusing any that is now a link or a file. */
async function makeRealFolders(dir: string, project: string): Promise<void> {
  if ((await realFolderProblem(dir, project)) === null) return;
  const parts = path.relative(project, dir).split(path.sep).filter((part) => part !== '');
  let current = project;
  for (const part of parts) {
    current = path.join(current, part);
    const stat = await fs.lstat(current).catch(() => null);
    if (stat === null) await fs.mkdir(current);
    else if (!stat.isDirectory()) throw new Error(`${shown(project, current)} is no longer a folder`);
  }
}

function shown(project: string, entry: string): string {
  return path.relative(project, entry) || '.';
}


/** Why the guard acts, as the model and the person read it. */
export const GIT_GUARD_REASON =
  'a sandboxed command may not create or move a git repository: git would run its settings outside the sandbox on your next git command; ' +
  'if the task needs it, call bash with "sandbox": false';

/** The lines appended to the command's result, or null when the guard found nothing to say. */
export function gitGuardNote(report: GitGuardReport): string | null {
  const lines: string[] = [];
  if (report.undone.length > 0) {
    lines.push(
      `[Git guard: ${GIT_GUARD_REASON}. Nor may it change a repository's settings, hooks or attributes. ` +
        `So Mino undid this: ${report.undone.join('; ')}. Everything else the command did is kept.]`,
    );
  }
  if (report.problems.length > 0) {
    lines.push(
      `[Git guard: Mino cannot vouch that git in this project runs only your own settings: ${report.problems.join('; ')}. ` +
        'Before running git here, look for .git folders or files you did not make (find . -name .git) and check .git/config and .git/hooks.]',
    );
  }
  return lines.length > 0 ? lines.join('\n') : null;
}
