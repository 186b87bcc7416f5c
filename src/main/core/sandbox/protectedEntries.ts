// What the sandbox does with each entry of the project it meets: the
// protected-path rules themselves live in policy/protectedPaths.ts; this file
// only asks them about each name, one segment at a time. The walk that meets
// the entries is projectWalk.ts.
import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import { directoryNameRuleFor, fileNameRuleFor } from '../policy/protectedPaths';

export interface ProtectedEntries {
  /** Files a file-name rule matches (`.env`, `*.pem`, ...): shown empty. */
  maskedFiles: string[];
  /** Directories a directory rule other than `.git/` matches (`.ssh/`, `.aws/`, ...), and those the walk cannot list: shown empty. */
  maskedDirs: string[];
  /** Entries the `.git/` rule matches: readable, so git status/diff/log work, but never written. */
  readOnly: string[];
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

/** What the sandbox does with one entry: one of the lists of ProtectedEntries. */
export type Treatment = keyof ProtectedEntries;

export interface ProtectedEntryJudge {
  /** What the sandbox does with a listed entry that is not a link; asked of every entry of the project, so it is cheap. */
  entry(entry: Dirent): Treatment | null;
  /** What it does with a listed link, at `full`: judged by what it points to, so the mount hides the target. */
  link(entry: Dirent, full: string): Promise<Treatment | null>;
}

/**
 * A judge for one walk. Names repeat across a tree (index.js, package.json,
 * README.md): each is judged once per walk, since the rules weigh every
 * spelling of a name and that is the costly part of the walk.
 */
export function protectedEntryJudge(): ProtectedEntryJudge {
  const judged = { file: new Map<string, Treatment | null>(), directory: new Map<string, Treatment | null>() };
  const judge = (name: string, kind: EntryKind) => {
    let treatment = judged[kind].get(name);
    if (treatment === undefined) {
      treatment = treatmentOf(name, kind);
      judged[kind].set(name, treatment);
    }
    return treatment;
  };
  return {
    entry: (entry) => (entry.isDirectory() ? judge(entry.name, 'directory') : entry.isFile() ? judge(entry.name, 'file') : null),
    link: async (entry, full) => {
      // Only a link whose name some rule covers matters; the rest are never followed.
      if (judge(entry.name, 'file') === null && judge(entry.name, 'directory') === null) return null;
      const kind = await linkedKind(full);
      return kind === null ? null : judge(entry.name, kind);
    },
  };
}

/** What a link leads to: a file or a directory; null for anything else or a dangling link. */
async function linkedKind(full: string): Promise<EntryKind | null> {
  try {
    const target = await fs.stat(full);
    return target.isDirectory() ? 'directory' : target.isFile() ? 'file' : null;
  } catch {
    // ignore: a dangling link (or one this account cannot follow, nor then the command) leads to nothing to hide
    return null;
  }
}
