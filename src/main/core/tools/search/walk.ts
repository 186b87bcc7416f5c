// The search tools' walk of the project, run in their worker thread (never on
// main's event loop, so its file calls are synchronous: one system call each,
// without a round trip through libuv's thread pool, which is what makes a walk
// of 50,000 files fast).
//
// It follows no link: a link is counted and passed by, and every folder and
// file is opened with O_NOFOLLOW. On Linux each entry is reached through its
// folder's open descriptor (/proc/PID/fd/N/name, as directoryRoute.ts does),
// so a folder swapped for a link during the walk cannot lead it out of the
// project. Elsewhere entries are reached by path, and such a swap between
// listing a folder and opening an entry is not caught (O_NOFOLLOW still
// refuses a link in the last place).
//
// It skips, and counts: what a protected rule matches (a folder such as
// .git/ or .ssh/ is not entered, a file such as .env is not opened), what the
// project's gitignore rules ignore (unless asked), links, and what cannot be
// listed or is not a regular file.
import type { Dirent } from 'node:fs';
import * as fs from 'node:fs';
import picomatch from 'picomatch';
import { IgnoreRules, MAX_RULES_FILE_BYTES } from '../../fs/ignoreRules';
import type { ProjectPath } from '../../fs/projectPath';
import { directoryNameRuleFor, fileNameRuleFor } from '../../policy/protectedPaths';
import { globCovers } from '../../rules/pathGlob';
import type { WalkScope } from './searchJob';

const { constants } = fs;
const NOFOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const FOLDER_FLAGS = NOFOLLOW | (constants.O_DIRECTORY ?? 0);
export const FILE_FLAGS = NOFOLLOW;
// The process's descriptors by its number, not through the /proc/self link: one lookup fewer for every entry opened.
const DESCRIPTORS = `/proc/${process.pid}/fd`;

export interface SkipCounts {
  protected: number;
  ignored: number;
  links: number;
  /** Folders that could not be opened or listed, files that could not be read. */
  unreadable: number;
  /** Not a regular file or folder: a FIFO, a socket, a device. */
  special: number;
  binary: number;
  tooLarge: number;
}

export function noSkips(): SkipCounts {
  return { protected: 0, ignored: 0, links: 0, unreadable: 0, special: 0, binary: 0, tooLarge: 0 };
}

/** A file the walk found and every check let through. */
export interface FoundFile {
  /** Its place in the walk's order (the same in every part of a search). */
  order: number;
  /** Project-relative path, '/'-separated. */
  rel: string;
  /** What to open it by (with FILE_FLAGS) or lstat it by: through its folder's descriptor where the system allows. */
  route: string;
}

export type WalkOutcome = { ok: true; stopped: boolean } | { ok: false; reason: string };

interface Folder {
  fd: number;
  /** Project-relative, '' for the root. */
  rel: string;
  /** Absolute path, for systems without /proc/self/fd. */
  abs: string;
}

/**
 * One of `count` workers that share a walk: each lists every folder, and
 * takes (visits or counts as skipped) the entries whose place in the walk's
 * order is `index` modulo `count`.
 */
export interface WalkPart {
  index: number;
  count: number;
}

export const WHOLE_WALK: WalkPart = { index: 0, count: 1 };

/**
 * Walks `scope`, calling `visit` for each file of `part` that passes; `visit`
 * returns false to stop. `tick` is called for every entry looked at (the
 * watchdog's sign of progress). Entries are visited in code-point order of
 * their names, so the same tree always gives the same answer.
 */
export function walkScope(scope: WalkScope, part: WalkPart, skipped: SkipCounts, tick: () => void, visit: (file: FoundFile) => boolean): WalkOutcome {
  return new Walk(scope, part, skipped, tick, visit).run();
}

class Walk {
  /** The gitignore rules, read as the walk enters folders; null when ignored files are searched too. */
  private rules: IgnoreRules | null = null;
  private readonly globMatch: ((rel: string) => boolean) | null;
  private readonly startPrefix: string;
  private pinned = false;
  private stopped = false;
  /** How many entries the walk has met: an entry's place in its order. */
  private ordinal = 0;
  /** Verdicts of the protected rules by name, for folders and for files: names repeat across a project. */
  private readonly protectedFolders = new Map<string, boolean>();
  private readonly protectedFiles = new Map<string, boolean>();

  constructor(
    private readonly scope: WalkScope,
    private readonly part: WalkPart,
    private readonly skipped: SkipCounts,
    private readonly tick: () => void,
    private readonly visit: (file: FoundFile) => boolean,
  ) {
    this.globMatch = scope.glob === null ? null : picomatch(scope.glob, { dot: true, basename: !scope.glob.includes('/') });
    this.startPrefix = scope.start === '.' ? '' : `${scope.start}/`;
  }

  run(): WalkOutcome {
    let root: Folder;
    try {
      root = { fd: fs.openSync(this.scope.projectDir, FOLDER_FLAGS), rel: '', abs: this.scope.projectDir };
    } catch (error) {
      return { ok: false, reason: `The project directory ${this.scope.projectDir} could not be opened (${codeOf(error)}); nothing was searched.` };
    }
    try {
      this.pinned = descriptorLeadsTo(root.fd, this.scope.projectDir);
      if (!this.scope.includeIgnored) {
        this.rules = IgnoreRules.fromText(this.scope.projectDir, readRulesText(this.route(root, '.git/info/exclude')));
      }
      return this.descend(root, this.scope.start === '.' ? [] : this.scope.start.split('/'));
    } finally {
      fs.closeSync(root.fd);
    }
  }

  /** Goes from the root down to the start path, loading the rules of each folder on the way, then walks it. */
  private descend(folder: Folder, parts: string[]): WalkOutcome {
    if (parts.length === 0) {
      this.walkFolder(folder, this.part.index === 0);
      return { ok: true, stopped: this.stopped };
    }
    this.loadRules(folder);
    const [name, ...rest] = parts;
    const rel = folder.rel === '' ? name : `${folder.rel}/${name}`;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(this.route(folder, name));
    } catch (error) {
      return { ok: false, reason: `${rel} ${codeOf(error) === 'ENOENT' ? 'does not exist' : `could not be read (${codeOf(error)})`}; give a folder or file of the project, or leave path out to search it all.` };
    }
    if (stat.isSymbolicLink()) return { ok: false, reason: `${rel} is a symbolic link; the search tools follow no links. Give the folder or file it stands for inside the project.` };
    if (!stat.isDirectory() && !(stat.isFile() && rest.length === 0)) {
      return { ok: false, reason: `${rel} is not a folder${rest.length === 0 ? ' or a regular file' : ''}; give a folder or file of the project.` };
    }
    if (this.rules?.ignores(rel, stat.isDirectory())) {
      const where = rel === this.scope.start ? `${rel} is` : `${this.scope.start} is in ${rel}, which is`;
      return { ok: false, reason: `${where} ignored by the project's .gitignore rules; send "include_ignored": true to search it.` };
    }
    if (stat.isFile()) {
      if (this.part.index === 0) this.stopped = !this.visit({ order: 0, rel, route: this.route(folder, name) });
      return { ok: true, stopped: this.stopped };
    }
    const child = this.openFolder(folder, name, rel, true);
    if (child === null) return { ok: false, reason: `${rel} could not be opened; nothing was searched.` };
    try {
      return this.descend(child, rest);
    } finally {
      fs.closeSync(child.fd);
    }
  }

  /** `ownsFolder`: whether this part is the one that counts a failure to list the folder. */
  private walkFolder(folder: Folder, ownsFolder: boolean): void {
    const entries = this.list(folder, ownsFolder);
    if (entries === null) return;
    if (this.rules && entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) this.loadRules(folder);
    for (const entry of entries) {
      if (this.stopped) return;
      this.tick();
      const order = this.ordinal++;
      const mine = order % this.part.count === this.part.index;
      const rel = folder.rel === '' ? entry.name : `${folder.rel}/${entry.name}`;
      // Every part goes into every folder (its entries are shared out too); the rest is done by one part only.
      if (entry.isDirectory()) this.enterFolder(folder, entry.name, rel, mine);
      else if (!mine) continue;
      else if (entry.isSymbolicLink()) this.skipped.links++;
      else if (entry.isFile()) this.offerFile(folder, entry.name, rel, order);
      else this.skipped.special++;
    }
  }

  private enterFolder(parent: Folder, name: string, rel: string, mine: boolean): void {
    if (this.isProtected(name, true) || this.personProtects(rel)) this.skipped.protected += Number(mine);
    else if (this.rules?.ignores(rel, true)) this.skipped.ignored += Number(mine);
    else {
      const child = this.openFolder(parent, name, rel, mine);
      if (child === null) return;
      try {
        this.walkFolder(child, mine);
      } finally {
        fs.closeSync(child.fd);
      }
    }
  }

  private offerFile(folder: Folder, name: string, rel: string, order: number): void {
    // A file the glob leaves out is no candidate, so it is not counted as skipped either.
    if (this.globMatch && !this.globMatch(rel.slice(this.startPrefix.length))) return;
    if (this.isProtected(name, false) || this.personProtects(rel)) this.skipped.protected++;
    else if (this.rules?.ignores(rel, false)) this.skipped.ignored++;
    else if (!this.visit({ order, rel, route: this.route(folder, name) })) this.stopped = true;
  }

  /** Whether one of the person's `protect` rules covers the entry at `rel` (a project path). */
  private personProtects(rel: string): boolean {
    const globs = this.scope.protectGlobs ?? [];
    return globs.length > 0 && globs.some((glob) => globCovers(glob, rel as ProjectPath));
  }

  /** Whether a protected rule matches the entry (its parents were checked on the way down). */
  private isProtected(name: string, isFolder: boolean): boolean {
    const known = isFolder ? this.protectedFolders : this.protectedFiles;
    let verdict = known.get(name);
    if (verdict === undefined) {
      verdict = fileNameRuleFor(name) !== null || (isFolder && directoryNameRuleFor(name) !== null);
      known.set(name, verdict);
    }
    return verdict;
  }

  private openFolder(parent: Folder, name: string, rel: string, mine: boolean): Folder | null {
    try {
      return { fd: fs.openSync(this.route(parent, name), FOLDER_FLAGS), rel, abs: `${parent.abs}/${name}` };
    } catch (error) {
      // A folder that became a link since it was listed is refused by O_NOFOLLOW (ELOOP).
      if (codeOf(error) === 'ELOOP') this.skipped.links += Number(mine);
      else this.skipped.unreadable += Number(mine);
      return null;
    }
  }

  private list(folder: Folder, mine: boolean): Dirent[] | null {
    try {
      const entries = fs.readdirSync(this.pinned ? `${DESCRIPTORS}/${folder.fd}` : folder.abs, { withFileTypes: true });
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      // ignore: counted; a folder this account may not list is passed by, as ripgrep does
      this.skipped.unreadable += Number(mine);
      return null;
    }
  }

  private route(folder: Folder, name: string): string {
    return this.pinned ? `${DESCRIPTORS}/${folder.fd}/${name}` : `${folder.abs}/${name}`;
  }

  private loadRules(folder: Folder): void {
    if (!this.rules) return;
    const text = readRulesText(this.route(folder, '.gitignore'));
    if (text !== null) this.rules.addRules(folder.rel, text);
  }
}

/** A rules file's text, or null when there is none (or it is a link, not a regular file, or too large), as ignoreRules.ts reads them. */
function readRulesText(route: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(route, FILE_FLAGS);
  } catch {
    // ignore: no readable rules file here means no rules from it, as for git
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_RULES_FILE_BYTES) return null;
    return fs.readFileSync(fd, 'utf8');
  } catch {
    // ignore: a rules file that fails while being read gives no rules, as an unreadable one does
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether /proc/PID/fd/N names the directory opened at `dir`: then entries can be reached through the descriptor. */
function descriptorLeadsTo(fd: number, dir: string): boolean {
  try {
    return fs.readlinkSync(`${DESCRIPTORS}/${fd}`) === dir;
  } catch {
    // ignore: no /proc (macOS, Windows, some containers): entries are reached by path
    return false;
  }
}

export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? String(error);
}
