// The files of a git repository through which a change makes git run
// something: its settings (config: core.fsmonitor, core.hooksPath, filters,
// aliases...), its hooks, its attributes, and the pointers to another git
// folder (commondir, gitdir). Kept, content and all, before a sandboxed
// command; after it, whatever it changed is put back exactly as it was. A
// kept file whose stamp has not moved since (and is clearly older than the
// walk before the command) still holds what was kept, and is not read again.
import type { BigIntStats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { codeOf, isSameOrInside } from './gitWalk';
import { inParallel } from './inParallel';
import { clearlyBeforeWalk } from './projectWalk';

/** Folders first: a file is restored only into a real folder. */
const WATCHED = ['info', 'hooks', 'config', 'config.worktree', 'commondir', 'gitdir', 'info/attributes'] as const;
/** The watched entries directly in the git folder, looked at before those inside its info/ and hooks/. */
const TOP_LEVEL = WATCHED.filter((rel) => !rel.includes('/'));

/**
 * The contents kept for every repository of a project together. Hooks and
 * settings are a few KiB a repository; a project whose repositories hold more
 * is refused before its command runs, since what could not be kept could not
 * be put back.
 */
export const MAX_KEPT_BYTES = 16 * 1024 * 1024;

export type Saved =
  | { type: 'absent' }
  /** `stamp`: its device, inode, size, ctime and mtime when kept; `ctimeNs`, to tell whether that stamp can be believed. */
  | { type: 'file'; mode: number; content: Buffer; stamp: string; ctimeNs: bigint }
  | { type: 'symlink'; target: string }
  | { type: 'directory'; mode: number }
  | { type: 'other' };

/** An entry as it is after the command: a file's content only where it could still be the kept one (null otherwise). */
type Seen = Exclude<Saved, { type: 'file' }> | { type: 'file'; mode: number; content: Buffer | null };

export interface RepositorySettings {
  /** Real path of the repository's git folder, inside the project. */
  gitDir: string;
  /** By path relative to gitDir: the watched entries, and each entry of hooks/. */
  entries: Map<string, Saved>;
  /** When the walk before the command began (ProjectWalk.startedAtNs): a kept file's stamp is believed only if clearly older. */
  startedAtNs: bigint;
}

export class GitSettingsLimitError extends Error {
  constructor(limit: number) {
    super(
      `the project's git repositories hold more than ${formatSize(limit)} of settings and hooks, more than Mino keeps a copy of ` +
        'to put them back after a sandboxed command',
    );
    this.name = 'GitSettingsLimitError';
  }
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`;
}

/** What may still be kept (`bytes`, spent as files are kept) out of `limit`. */
export interface KeepBudget {
  limit: number;
  bytes: number;
}

/**
 * Keeps the watched entries of `gitDir`, spending `budget`; `startedAtNs`:
 * when the walk before the command began. A few are read side by side: the
 * disk serves one while another waits.
 */
export async function saveRepositorySettings(gitDir: string, budget: KeepBudget, startedAtNs: bigint): Promise<RepositorySettings> {
  const entries = new Map<string, Saved>();
  const keep = (rel: string) => save(path.join(gitDir, rel), budget);
  await eachOf(WATCHED, keep, entries);
  if (entries.get('hooks')?.type === 'directory') await eachOf(await hooksIn(gitDir), keep, entries);
  return { gitDir, entries, startedAtNs };
}

/** Sets `into` each of `rels` as `look` finds it, a few looked at side by side; in the order of `rels`, so folders stay before what they hold. */
async function eachOf<T>(rels: readonly string[], look: (rel: string) => Promise<T>, into: Map<string, T>): Promise<void> {
  const found: T[] = [];
  await inParallel(
    rels.map((rel, index) => ({ rel, index })),
    async ({ rel, index }) => {
      found[index] = await look(rel);
    },
  );
  rels.forEach((rel, index) => into.set(rel, found[index]!));
}

/** The entries of the real folder `gitDir/hooks`, as paths relative to gitDir. */
async function hooksIn(gitDir: string): Promise<string[]> {
  return (await fs.readdir(path.join(gitDir, 'hooks')).catch(() => [])).map((name) => `hooks/${name}`);
}

async function save(file: string, budget: KeepBudget): Promise<Saved> {
  // Stamped before it is read, so a change after the reading shows in the stamp.
  const stat = await fs.lstat(file, { bigint: true }).catch(() => null);
  if (stat === null) return { type: 'absent' };
  if (stat.isDirectory()) return { type: 'directory', mode: modeOf(stat) };
  if (stat.isSymbolicLink()) return { type: 'symlink', target: await fs.readlink(file) };
  if (!stat.isFile()) return { type: 'other' };
  budget.bytes -= Number(stat.size);
  if (budget.bytes < 0) throw new GitSettingsLimitError(budget.limit);
  return { type: 'file', mode: modeOf(stat), content: await fs.readFile(file), stamp: fileStamp(stat), ctimeNs: stat.ctimeNs };
}

const modeOf = (stat: BigIntStats) => Number(stat.mode & 0o7777n);
const fileStamp = (stat: BigIntStats) => `${stat.dev}:${stat.ino}:${stat.size}:${stat.ctimeNs}:${stat.mtimeNs}`;

export interface RestoreReport {
  /** What was put back, one line each, project-relative: "restored .git/config". */
  undone: string[];
  /** What could not be checked or put back. */
  problems: string[];
}

/** Puts every watched entry of the repository back as `saved` keeps it, and removes hooks that were not there. */
export async function restoreRepositorySettings(saved: RepositorySettings, projectDir: string, report: RestoreReport): Promise<void> {
  const shown = (rel: string) => path.relative(projectDir, path.join(saved.gitDir, rel)) || '.';
  const folder = await realFolderProblem(saved.gitDir, projectDir);
  if (folder !== null) {
    // Gone or moved (a moved repository is put back before this, if Mino could find it): nothing at this path to run.
    if (folder.symlink) {
      await fs.rm(saved.gitDir, { force: true });
      report.undone.push(`removed ${shown('')} (a link where the repository was)`);
    }
    return;
  }
  const now = await lookNow(saved);
  const rels = [...new Set([...saved.entries.keys(), ...now.keys()])];
  // Entries are compared only inside folders that are real folders now: nothing is read or written through a link.
  const realFolders = new Set(['.']);
  const replaced = new Set<string>();
  for (const rel of rels) {
    const parent = path.dirname(rel);
    if (!realFolders.has(parent)) continue;
    const before = saved.entries.get(rel) ?? ABSENT;
    // A folder put back holds nothing yet, whatever stood there before.
    const after = replaced.has(parent) ? ABSENT : (now.get(rel) ?? ABSENT);
    // An info/ folder that appeared stays (it holds more than attributes, and nothing that runs); hooks/ never does.
    if (rel === 'info' && before.type === 'absent' && after.type === 'directory') {
      realFolders.add(rel);
      continue;
    }
    if (!same(before, after)) {
      try {
        await put(path.join(saved.gitDir, rel), before);
        replaced.add(rel);
        report.undone.push(before.type === 'absent' ? `removed ${shown(rel)}` : `restored ${shown(rel)}`);
      } catch (error) {
        report.problems.push(`${shown(rel)} could not be put back (${codeOf(error)})`);
        continue;
      }
    }
    if (before.type === 'directory') realFolders.add(rel);
  }
}

const ABSENT: Saved = { type: 'absent' };

/**
 * The watched entries of the repository as they are now, looked at side by
 * side. Only what lies in a real folder now is looked at, so nothing is read
 * through a link the command left: the entries directly in the git folder
 * (a real one: restoreRepositorySettings checked), and those in info/ and
 * hooks/ when each is a real folder now. Whatever is not looked at counts as
 * absent.
 */
async function lookNow(saved: RepositorySettings): Promise<Map<string, Seen>> {
  const now = new Map<string, Seen>();
  const look = (rel: string) => peek(path.join(saved.gitDir, rel), saved.entries.get(rel), saved.startedAtNs);
  await eachOf(TOP_LEVEL, look, now);
  const inside = [...(now.get('info')?.type === 'directory' ? ['info/attributes'] : []), ...(now.get('hooks')?.type === 'directory' ? await hooksIn(saved.gitDir) : [])];
  await eachOf(inside, look, now);
  return now;
}

/**
 * The entry as it is now. A file's content is read only when its size and
 * mode are the kept file's (so a huge file a command left is never loaded),
 * and not even then when its stamp is the kept one and clearly older than the
 * walk: writing to a file moves its ctime to now, which no command can set
 * back, so it still holds the kept content.
 */
async function peek(file: string, kept: Saved | undefined, startedAtNs: bigint): Promise<Seen> {
  const stat = await fs.lstat(file, { bigint: true }).catch(() => null);
  if (stat === null) return { type: 'absent' };
  if (stat.isDirectory()) return { type: 'directory', mode: modeOf(stat) };
  if (stat.isSymbolicLink()) return { type: 'symlink', target: await fs.readlink(file) };
  if (!stat.isFile()) return { type: 'other' };
  const mode = modeOf(stat);
  if (kept?.type !== 'file' || kept.mode !== mode || BigInt(kept.content.length) !== stat.size) return { type: 'file', mode, content: null };
  const untouched = kept.stamp === fileStamp(stat) && clearlyBeforeWalk(kept.ctimeNs, startedAtNs);
  return { type: 'file', mode, content: untouched ? kept.content : await fs.readFile(file) };
}

function same(before: Saved, after: Seen): boolean {
  if (before.type !== after.type) return false;
  if (before.type === 'symlink' && after.type === 'symlink') return before.target === after.target;
  if (before.type === 'file' && after.type === 'file') return after.content !== null && before.mode === after.mode && before.content.equals(after.content);
  // A folder is compared by what it holds, entry by entry; `other` cannot be kept, so it is left as it is.
  return true;
}

/** Removes whatever is at `file` now and puts `saved` there: no link is ever followed. */
async function put(file: string, saved: Saved): Promise<void> {
  if (saved.type === 'other') throw new Error('it was neither a file, a folder nor a link, so Mino kept no copy');
  await fs.rm(file, { recursive: true, force: true });
  if (saved.type === 'directory') {
    await fs.mkdir(file, { mode: saved.mode });
    await fs.chmod(file, saved.mode);
  } else if (saved.type === 'symlink') {
    await fs.symlink(saved.target, file);
  } else if (saved.type === 'file') {
    await fs.writeFile(file, saved.content, { flag: 'wx', mode: saved.mode });
    await fs.chmod(file, saved.mode);
  }
}

/** Why `dir` is not a real folder reached through real folders from the project (no link on the way), or null. */
export async function realFolderProblem(dir: string, projectDir: string): Promise<{ symlink: boolean } | null> {
  if (!isSameOrInside(dir, projectDir)) return { symlink: false };
  const parts = path.relative(projectDir, dir).split(path.sep).filter((part) => part !== '');
  let current = projectDir;
  for (const [index, part] of ['', ...parts].entries()) {
    current = part === '' ? current : path.join(current, part);
    const stat = await fs.lstat(current).catch(() => null);
    if (stat === null || !stat.isDirectory()) return { symlink: index === parts.length && stat?.isSymbolicLink() === true };
  }
  return null;
}
