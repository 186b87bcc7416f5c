// The project's gitignore rules, as git applies them, matched by the maintained
// `ignore` package (no hand-written gitignore matcher).
//
// git reads the rules as its walk enters each folder, and so does this class:
// a folder's `.gitignore` is read by enterFolder, and a path is judged only by
// the rules of folders entered so far. What git does, and what is done here:
//   - the patterns of `<folder>/.gitignore` are relative to that folder;
//   - for one path, the deepest `.gitignore` with a matching pattern decides
//     (its last matching pattern: `!pattern` re-includes), then shallower ones,
//     then `.git/info/exclude`;
//   - a path below an ignored folder is ignored, whatever deeper files say
//     ("it is not possible to re-include a file if a parent directory of that
//     file is excluded");
//   - a `.gitignore` that is a symbolic link is not read (git 2.32 and later).
// Not read: the user's core.excludesFile and a `.git` that is a file (a
// worktree or submodule), whose exclude file lives elsewhere.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** A rules file larger than this is not read (git has no limit; a real one is a few KiB). */
export const MAX_RULES_FILE_BYTES = 1024 * 1024;

const { constants } = fs;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

// git's core.ignoreCase follows the file system: off on Linux, on for the
// default (case-insensitive) file systems of macOS and Windows.
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';

/** The ignore rules that apply inside one project: its .gitignore files (loaded per folder as the walk enters it) and .git/info/exclude. */
export class IgnoreRules {
  /** The rules of each entered folder that has a `.gitignore` ('' = the project root). */
  private readonly byFolder = new Map<string, Ignore>();
  private readonly entered = new Set<string>();
  /** Whether each folder asked about so far is ignored (itself or through a parent). */
  private readonly folderVerdicts = new Map<string, boolean>();

  private constructor(
    private readonly projectRoot: string,
    /** `.git/info/exclude`: patterns relative to the root, below every `.gitignore` in precedence. */
    private readonly exclude: Ignore | null,
  ) {}

  /** Reads the root `.gitignore` and `.git/info/exclude` of the project at `projectRoot` (an absolute path). */
  static async forProject(projectRoot: string): Promise<IgnoreRules> {
    const excludeText = await readRulesFile(path.join(projectRoot, '.git', 'info', 'exclude'));
    const rules = new IgnoreRules(projectRoot, excludeText === null ? null : newMatcher(excludeText));
    await rules.enterFolder('');
    return rules;
  }

  /** Rules from text the caller already has, for a walk that reads its `.gitignore` files itself (addRules). */
  static fromText(projectRoot: string, excludeText: string | null): IgnoreRules {
    return new IgnoreRules(projectRoot, excludeText === null ? null : newMatcher(excludeText));
  }

  /** Reads `<folder>/.gitignore` (project-relative folder, '' = root) if present; call when a walk enters a folder. */
  async enterFolder(relativeFolder: string): Promise<void> {
    const folder = checkedFolder(relativeFolder);
    if (this.entered.has(folder)) return;
    this.entered.add(folder);
    const text = await readRulesFile(path.join(this.projectRoot, folder, '.gitignore'));
    if (text !== null) this.addRules(folder, text);
  }

  /** Adds the text of `<folder>/.gitignore`, as enterFolder does after reading it. */
  addRules(relativeFolder: string, text: string): void {
    const folder = checkedFolder(relativeFolder);
    this.entered.add(folder);
    const existing = this.byFolder.get(folder);
    if (existing) existing.add(text);
    else this.byFolder.set(folder, newMatcher(text));
    // New rules can change what was said about folders below this one.
    this.folderVerdicts.clear();
  }

  /** Whether a project-relative path (posix separators) is ignored; `isDirectory` for folders. Rules of folders not yet entered are not applied. */
  ignores(relativePath: string, isDirectory: boolean): boolean {
    checkPath(relativePath);
    // Strings, not arrays of parts: a walk asks this for every entry of the project.
    const slash = relativePath.lastIndexOf('/');
    if (slash !== -1 && this.folderIgnored(relativePath.slice(0, slash))) return true;
    return isDirectory ? this.folderIgnored(relativePath) : this.matches(relativePath, false);
  }

  private folderIgnored(folder: string): boolean {
    const known = this.folderVerdicts.get(folder);
    if (known !== undefined) return known;
    const slash = folder.lastIndexOf('/');
    const verdict = (slash !== -1 && this.folderIgnored(folder.slice(0, slash))) || this.matches(folder, true);
    this.folderVerdicts.set(folder, verdict);
    return verdict;
  }

  /**
   * The path's own verdict, its parent folders being known not ignored: the
   * deepest rules file whose patterns match it decides.
   */
  private matches(p: string, isDirectory: boolean): boolean {
    const suffix = isDirectory ? '/' : '';
    // From the path's own folder up to the root ('' when no '/' is left).
    for (let end = p.lastIndexOf('/'); ; end = p.lastIndexOf('/', end - 1)) {
      const rules = this.byFolder.get(end === -1 ? '' : p.slice(0, end));
      const verdict = rules ? ownVerdict(rules, p.slice(end + 1), suffix) : null;
      if (verdict !== null) return verdict;
      if (end === -1) break;
    }
    return this.exclude ? (ownVerdict(this.exclude, p, suffix) ?? false) : false;
  }
}

/**
 * What one rules file says about the path itself (relative to the file's
 * folder): true (ignored), false (re-included by a `!` pattern) or null (no
 * pattern matches). The `ignore` package also applies the file's verdict on
 * the path's parent folders; when it ignores one of them, a deeper file has
 * re-included that folder (the caller checked the parents), so this file's
 * word on paths below it is overruled and it says nothing. Then a pattern of
 * this file that names the path itself is not applied either: a rare, lenient
 * difference from git.
 */
function ownVerdict(rules: Ignore, relative: string, suffix: string): boolean | null {
  const slash = relative.lastIndexOf('/');
  if (slash !== -1 && rules.test(relative.slice(0, slash + 1)).ignored) return null;
  const result = rules.test(relative + suffix);
  if (result.ignored) return true;
  if (result.unignored) return false;
  return null;
}

function newMatcher(text: string): Ignore {
  return ignore({ ignorecase: IGNORE_CASE }).add(text);
}

// An empty, '.' or '..' part (so also a leading or trailing '/'), or a backslash.
const NOT_RELATIVE = /(^|\/)\.{0,2}(\/|$)|\\/;

function checkedFolder(relativeFolder: string): string {
  if (relativeFolder !== '') checkPath(relativeFolder);
  return relativeFolder;
}

function checkPath(relativePath: string): void {
  if (NOT_RELATIVE.test(relativePath)) {
    throw new RangeError(`IgnoreRules takes a project-relative path with '/' separators and no '.', '..' or empty parts, not ${JSON.stringify(relativePath)}.`);
  }
}

/**
 * The text of a rules file, or null when there is none to read: missing, a
 * symbolic link (git does not follow one either), not a regular file, larger
 * than MAX_RULES_FILE_BYTES, or unreadable.
 */
async function readRulesFile(file: string): Promise<string | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, READ_FLAGS);
  } catch {
    // ignore: no readable rules file here (ENOENT, ELOOP for a link, ENOTDIR, EACCES) means no rules from it, as for git
    return null;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_RULES_FILE_BYTES) return null;
    return await handle.readFile({ encoding: 'utf8' });
  } catch {
    // ignore: a rules file that fails while being read (EIO) gives no rules, as an unreadable one does
    return null;
  } finally {
    await handle.close();
  }
}
