// The project's files for the window's file list and @mention suggestions:
// one directory at a time, or a bounded search of the whole project. Every
// directory is opened through the same confined route the file tools use
// (no symbolic link is followed, a swapped directory is refused), and every
// path the renderer sends goes through the same normalization as a tool's
// path, so nothing outside the project can be listed. Read-only: names and
// kinds, never contents.
import type { FileListing, FileSearch, ProjectFile } from '../../../shared/files';
import { entryOf } from '../fs/directoryRoute';
import { listProjectDirectory, type DirectoryEntry } from '../fs/listDirectory';
import { normalizeProjectPath, PROJECT_ROOT, projectPathParts, type ProjectPath } from '../fs/projectPath';
import { directoryNameRuleFor, protectedRuleFor } from '../policy/protectedPaths';

/** Entries of one directory the list shows; the rest are counted as `more`. */
export const FILE_LIST_MAX_ENTRIES = 1000;
/** Entries the search looks at before it stops (and says so). */
export const FILE_SEARCH_MAX_VISITED = 20_000;
/** Directory levels below the project the search goes down. */
export const FILE_SEARCH_MAX_DEPTH = 12;
/** Matches a search returns. */
export const FILE_SEARCH_MAX_MATCHES = 50;

/**
 * Dependency, environment and cache folders: listed (so the person sees they
 * exist) but never searched, since they hold more entries than the cap and
 * nothing a person usually mentions. Matched by exact name.
 */
export const SKIPPED_IN_SEARCH: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
  '.next',
  '.nuxt',
  '.turbo',
  '.cache',
]);

export interface SearchCaps {
  limit: number;
  maxVisited: number;
  maxDepth: number;
}

const DEFAULT_SEARCH_CAPS: SearchCaps = { limit: FILE_SEARCH_MAX_MATCHES, maxVisited: FILE_SEARCH_MAX_VISITED, maxDepth: FILE_SEARCH_MAX_DEPTH };

export type FilesResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Protected paths beyond the built-in rules (the person's `protect` rules):
 * what protects `path`, in words, or null. Default: none.
 */
export type MoreProtected = (path: ProjectPath) => string | null;

const NONE_MORE: MoreProtected = () => null;

/**
 * `.git` (in any spelling the protected rules know) is not listed at all, as
 * editors hide it: it is protected, and a repository's internals are noise in
 * a file list. Other protected names (.env, keys, .ssh/) are listed, marked.
 */
function isHidden(name: string): boolean {
  return directoryNameRuleFor(name) === '.git/';
}

function toProjectFile(dir: ProjectPath, entry: DirectoryEntry, more: MoreProtected): ProjectFile {
  const p = entryOf(dir, entry.name);
  return {
    path: p,
    name: entry.name,
    kind: entry.kind,
    protectedBy: protectedRuleFor(p, entry.kind === 'dir' ? 'directory' : 'file') ?? more(p),
    skippedInSearch: entry.kind === 'dir' && SKIPPED_IN_SEARCH.has(entry.name),
  };
}

/** The entries of directory `raw` (project-relative; "." or "" for the root), directories first. */
export async function listProjectFiles(root: string, raw: string, more: MoreProtected = NONE_MORE): Promise<FilesResult<FileListing>> {
  const normalized = normalizeProjectPath(raw === '' ? '.' : raw);
  if (!normalized.ok) return { ok: false, reason: `Mino cannot list that folder: ${normalized.reason}.` };
  const dir = normalized.path;
  const rule = protectedRuleFor(dir, 'directory') ?? more(dir);
  if (rule !== null || projectPathParts(dir).some(isHidden)) {
    return { ok: false, reason: `${dir} is protected (${rule ?? '.git/'}); Mino does not list or open it.` };
  }
  const listed = await listProjectDirectory(root, dir);
  if (!listed.ok) return { ok: false, reason: `Mino cannot list ${dir}: ${listed.reason}` };
  const visible = listed.entries.filter((entry) => !isHidden(entry.name));
  return {
    ok: true,
    value: {
      path: dir,
      entries: visible.slice(0, FILE_LIST_MAX_ENTRIES).map((entry) => toProjectFile(dir, entry, more)),
      more: Math.max(0, visible.length - FILE_LIST_MAX_ENTRIES),
    },
  };
}

/**
 * Files and folders whose project path contains `query` (case-insensitive),
 * best first: a name that starts with it, then a name that contains it, then
 * a path that does; shallower and shorter paths first. The walk is breadth
 * first, skips hidden, protected, skipped and linked folders, and stops after
 * FILE_SEARCH_MAX_VISITED entries or FILE_SEARCH_MAX_DEPTH levels.
 */
export async function searchProjectFiles(root: string, query: string, caps: Partial<SearchCaps> = {}, more: MoreProtected = NONE_MORE): Promise<FileSearch> {
  const { limit, maxVisited, maxDepth } = { ...DEFAULT_SEARCH_CAPS, ...caps };
  const needle = query.trim().toLowerCase();
  const found: Array<{ file: ProjectFile; score: number; depth: number }> = [];
  let queue: ProjectPath[] = [PROJECT_ROOT];
  let visited = 0;
  let truncated = false;
  for (let depth = 0; queue.length > 0 && !truncated; depth++) {
    if (depth >= maxDepth) {
      truncated = true;
      break;
    }
    const next: ProjectPath[] = [];
    for (const dir of queue) {
      // A folder that cannot be listed (removed meanwhile, unreadable) is left out of the results, not an error.
      const listed = await listProjectDirectory(root, dir);
      if (!listed.ok) continue;
      for (const entry of listed.entries) {
        if (visited >= maxVisited) {
          truncated = true;
          break;
        }
        visited++;
        // The name rules cost far more than the match (every spelling of every name is judged), so a file
        // that does not match is passed over before they run; a folder is judged to know whether to go in.
        const p = entryOf(dir, entry.name);
        const score = matchScore(entry.name, p, needle);
        if (score === null && entry.kind !== 'dir') continue;
        if (isHidden(entry.name)) continue;
        const file = toProjectFile(dir, entry, more);
        if (score !== null) found.push({ file, score, depth });
        if (file.kind === 'dir' && file.protectedBy === null && !file.skippedInSearch) next.push(p);
      }
      if (truncated) break;
    }
    queue = next;
  }
  found.sort((a, b) => a.score - b.score || a.depth - b.depth || a.file.path.length - b.file.path.length || compare(a.file.path, b.file.path));
  return {
    query,
    matches: found.slice(0, limit).map((entry) => entry.file),
    more: Math.max(0, found.length - limit),
    truncated,
  };
}

function matchScore(entryName: string, entryPath: string, needle: string): number | null {
  if (needle === '') return 0;
  const name = entryName.toLowerCase();
  if (name.startsWith(needle)) return 0;
  if (name.includes(needle)) return 1;
  const p = entryPath.toLowerCase();
  if (p.startsWith(needle)) return 2;
  if (p.includes(needle)) return 3;
  return null;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
