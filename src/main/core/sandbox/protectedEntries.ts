// Finds, when a sandboxed command starts, the entries of a directory tree that
// the protected-path rules cover, so the sandbox can hide them. The rules
// themselves live in policy/protectedPaths.ts; this file only asks them about
// each name it meets, one segment at a time.
import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { directoryNameRuleFor, fileNameRuleFor } from '../policy/protectedPaths';

export interface ProtectedEntries {
  /** Files a file-name rule matches (`.env`, `*.pem`, ...): shown empty. */
  maskedFiles: string[];
  /** Directories a directory rule other than `.git/` matches (`.ssh/`, `.aws/`, ...): shown empty. */
  maskedDirs: string[];
  /** Entries the `.git/` rule matches: readable, so git status/diff/log work, but never written. */
  readOnly: string[];
}

/** More entries than this and the search stops: a sandbox that could not look everywhere would hide too little. */
export const MAX_ENTRIES = 300_000;

export class ProtectedEntriesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtectedEntriesError';
  }
}

/** The rule `.git` itself falls under, so a directory rule can be told apart from it without naming it twice. */
const GIT_RULE = directoryNameRuleFor('.git');

type EntryKind = 'file' | 'directory';

/** What the sandbox does with one entry named `name`, or null when no rule covers it. */
export function treatmentOf(name: string, kind: EntryKind): keyof ProtectedEntries | null {
  const directoryRule = directoryNameRuleFor(name);
  // A `.git` file (a worktree's or submodule's pointer to its repository) is kept from being redirected too.
  if (directoryRule !== null && directoryRule === GIT_RULE) return 'readOnly';
  if (fileNameRuleFor(name) !== null) return kind === 'file' ? 'maskedFiles' : 'maskedDirs';
  return kind === 'directory' && directoryRule !== null ? 'maskedDirs' : null;
}

/** Directories read at once: the walk waits on the disk, not the processor, so a few in flight make it several times faster. */
const PARALLEL_READS = 16;

/**
 * Walks `root` (every level when `recursive`, else its direct entries only).
 * Links are not followed into, but a link whose own name a rule covers is
 * judged by what it points to, so the mount hides the target. Nothing under a
 * covered directory is visited: it is hidden or read-only as a whole.
 * `maxEntries` (default MAX_ENTRIES) lets a test reach the limit without
 * making that many files.
 */
export async function findProtectedEntries(root: string, options: { recursive: boolean; maxEntries?: number }): Promise<ProtectedEntries> {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const found: ProtectedEntries = { maskedFiles: [], maskedDirs: [], readOnly: [] };
  const pending = [root];
  let visited = 0;
  // Names repeat across a tree (index.js, package.json, README.md): each is judged once per walk.
  const judged = new Map<string, keyof ProtectedEntries | null>();
  const judge = (name: string, kind: EntryKind) => {
    const key = `${kind}/${name}`;
    let treatment = judged.get(key);
    if (treatment === undefined) {
      treatment = treatmentOf(name, kind);
      judged.set(key, treatment);
    }
    return treatment;
  };

  const visit = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      // A directory the person cannot read is one the command cannot read either.
      if (dir !== root && isUnreadable(error)) return;
      if (dir === root && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    visited += entries.length;
    if (visited > maxEntries) {
      throw new ProtectedEntriesError(
        `the project has more than ${maxEntries.toLocaleString('en-US')} files and folders, too many to find every protected file before the command starts`,
      );
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const kind = await kindOf(entry, full);
      if (kind === null) continue;
      const treatment = judge(entry.name, kind);
      if (treatment !== null) found[treatment].push(full);
      else if (kind === 'directory' && options.recursive && !entry.isSymbolicLink()) pending.push(full);
    }
  };

  await new Promise<void>((resolve, reject) => {
    let reading = 0;
    let failed = false;
    const next = () => {
      while (!failed && reading < PARALLEL_READS && pending.length > 0) {
        reading += 1;
        visit(pending.pop()!).then(
          () => {
            reading -= 1;
            if (reading === 0 && pending.length === 0) resolve();
            else next();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    next();
  });
  return found;
}

/** A file or a directory, following a link; null for anything else or a dangling link. */
async function kindOf(entry: Dirent, full: string): Promise<EntryKind | null> {
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  if (!entry.isSymbolicLink()) return null;
  // Only a link whose name some rule covers matters; the rest are never followed.
  if (treatmentOf(entry.name, 'file') === null && treatmentOf(entry.name, 'directory') === null) return null;
  try {
    const target = await fs.stat(full);
    return target.isDirectory() ? 'directory' : target.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

function isUnreadable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ENOTDIR';
}
