// What every tracked path of a project holds now, kept so that a sandboxed
// command's changes can be captured with their pre-images (see
// changeWatch.ts): for each regular file its bytes (under a size cap) and
// stat identity, for each folder its permission bits and tracked entries, for
// each symbolic link its target. Paths are project-relative, '' for the root.
//
// Not tracked, and never read: `.git` entries (the sandbox keeps them
// read-only and the git guard undoes what a command does to them), protected
// files and folders (the sandbox masks them; their content must never reach
// ~/.mino), what .gitignore ignores (node_modules, build output), and names
// a project path cannot spell (a backslash, or bytes that are not UTF-8).
//
// The reads are synchronous: each is one lstat, or an open, fstat and read of
// at most the per-file cap, which a thread-pool round trip would make several
// times slower. The long passes (the first walk of a project) yield between
// slices so the event loop is never held for more than a few milliseconds.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_RULES_FILE_BYTES, type IgnoreRules } from '../fs/ignoreRules';
import type { ProjectPath } from '../fs/projectPath';
import { directoryNameRuleFor, fileNameRuleFor } from '../policy/protectedPaths';
import { isDotGit } from '../sandbox/gitWalk';
import type { SeenImage } from '../tools/types';

export interface CaptureLimits {
  /** A file larger than this is tracked without its content: a change to it is reported, not captured. */
  maxFileBytes: number;
  /** The contents kept for one project, together; more and the project is too large to capture. */
  maxTotalBytes: number;
  /** Folders watched for one project; more and the project is too large to capture. */
  maxFolders: number;
}

export const DEFAULT_CAPTURE_LIMITS: CaptureLimits = {
  maxFileBytes: 4 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFolders: 10_000,
};

export interface FileEntry {
  kind: 'file';
  /** Device and inode. */
  id: string;
  nlink: number;
  mode: number;
  size: number;
  /** Milliseconds, as precise as the file system keeps them (a double holds them to well under a microsecond). */
  ctimeMs: number;
  mtimeMs: number;
  /** Null when it was not kept: `unkept` says why. */
  content: Buffer | null;
  unkept?: string;
}

export interface FolderEntry {
  kind: 'directory';
  id: string;
  mode: number;
  /** The names of its tracked entries. */
  children: Set<string>;
}

export type Entry = FileEntry | FolderEntry | { kind: 'symlink'; target: string } | { kind: 'other'; id: string };

/** Why a path is not tracked: it is git's, protected, ignored, or has a name a project path cannot spell. */
export type Untracked = 'git' | 'protected' | 'ignored' | 'unnamed';

const { constants } = fs;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export class Baseline {
  readonly entries = new Map<string, Entry>();
  /**
   * The tracked names of each file, by identity. A file with more than one
   * name (hard links) changes under all of them when written through one,
   * and the watch names only that one.
   */
  private readonly byId = new Map<string, string | Set<string>>();
  /** The files with more than one name, here or elsewhere: a write through a name outside the project leaves no event, so they are checked by stat before each command. */
  readonly linked = new Set<string>();
  /** Bytes of content kept. */
  bytes = 0;
  /** Set once the contents outgrow the cap: nothing can be captured until the project is walked again. */
  tooLarge: string | null = null;
  private readonly judged = new Map<string, boolean>();

  constructor(
    readonly root: string,
    readonly rules: IgnoreRules,
    readonly limits: CaptureLimits,
  ) {}

  /** Why `rel` is not tracked, or null when it is. Asked of every entry met. */
  untracked(rel: string, isDirectory: boolean): Untracked | null {
    if (rel === '') return null;
    const name = path.posix.basename(rel);
    if (isDotGit(name)) return 'git';
    // A backslash is a separator to project paths, and U+FFFD stands for bytes that are not UTF-8: neither could be written back.
    if (name.includes('\\') || name.includes('\uFFFD')) return 'unnamed';
    if (this.isProtected(name, isDirectory)) return 'protected';
    try {
      return this.rules.ignores(rel, isDirectory) ? 'ignored' : null;
    } catch {
      // ignore: the rules refuse a path they cannot judge (an odd spelling); it is not one Mino can write back either
      return 'unnamed';
    }
  }

  /**
   * Whether a protected rule covers an entry of this name. Only the name is
   * judged: a path is asked about only once its folder is tracked, so no
   * folder above it is protected. Names repeat across a tree; each is judged once.
   */
  private isProtected(name: string, isDirectory: boolean): boolean {
    const key = `${isDirectory ? 'd' : 'f'}${name}`;
    let known = this.judged.get(key);
    if (known === undefined) {
      known = fileNameRuleFor(name) !== null || (isDirectory && directoryNameRuleFor(name) !== null);
      this.judged.set(key, known);
    }
    return known;
  }

  /**
   * What is at `rel` now, read from the disk (its content too, within the
   * caps); null when nothing is. `listedAsFile`: its folder's listing showed
   * a regular file, so it is opened at once and its stat taken from the
   * descriptor, saving an lstat (the first walk reads every file so).
   */
  readNow(rel: string, listedAsFile = false): Entry | null {
    const abs = this.absolute(rel);
    if (listedAsFile) {
      const opened = this.readFile(abs);
      if (opened !== undefined) return opened;
    }
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      return { kind: 'other', id: `unreadable:${code ?? 'error'}` };
    }
    const id = `${stat.dev}:${stat.ino}`;
    if (stat.isDirectory()) return { kind: 'directory', id, mode: stat.mode & 0o777, children: new Set() };
    if (stat.isSymbolicLink()) return readLink(abs, id);
    if (!stat.isFile()) return { kind: 'other', id };
    const opened = this.readFile(abs);
    if (opened?.kind === 'file' && opened.id === id) return opened;
    // Not readable by this account (a command run as it may still chmod and change it), or replaced meanwhile.
    return { ...fileEntry(stat, null), unkept: opened === undefined ? 'it could not be read' : 'it changed while it was read' };
  }

  /**
   * The regular file at `abs`, read through one descriptor: opened without
   * following a link or blocking on a pipe, its stat from the descriptor.
   * Null when nothing is there; undefined when it cannot be opened as a file.
   */
  private readFile(abs: string): Entry | null | undefined {
    let fd: number;
    try {
      fd = fs.openSync(abs, READ_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return undefined;
      if (stat.size > this.limits.maxFileBytes) return { ...fileEntry(stat, null), unkept: `over ${sizeText(this.limits.maxFileBytes)}` };
      const content = readAll(fd, stat.size);
      return content ? fileEntry(stat, content) : { ...fileEntry(stat, null), unkept: 'it changed while it was read' };
    } catch (error) {
      return { kind: 'other', id: `unreadable:${(error as NodeJS.ErrnoException).code ?? 'error'}` };
    } finally {
      closeQuietly(fd);
    }
  }

  /** The tracked entries of the folder at `rel` as they are now, by name, each with whether it is a folder; null when it cannot be listed. */
  listNow(rel: string): fs.Dirent[] | null {
    try {
      return fs.readdirSync(this.absolute(rel), { withFileTypes: true });
    } catch {
      // ignore: gone, or not listable by this account (the sandbox hides such a folder whole, so no command changed it)
      return null;
    }
  }

  /** Applies the folder's own `.gitignore` before its entries are judged, as git does when its walk enters a folder. */
  enterFolder(rel: string, listing: readonly fs.Dirent[]): void {
    // A `.gitignore` that is a link is not read, as git (2.32 and later) does not read one.
    if (!listing.some((entry) => entry.name === '.gitignore' && entry.isFile())) return;
    const read = this.readFile(path.join(this.absolute(rel), '.gitignore'));
    if (read?.kind === 'file' && read.content && read.size <= MAX_RULES_FILE_BYTES) this.rules.addRules(rel, read.content.toString('utf8'));
  }

  /** Records `entry` at `rel`, in place of what was there, and adds it to its folder's tracked entries. */
  put(rel: string, entry: Entry): void {
    if (this.entries.has(rel)) this.forget(rel);
    this.entries.set(rel, entry);
    if (entry.kind === 'file') {
      if (entry.content) this.bytes += entry.content.length;
      const names = this.byId.get(entry.id);
      if (names === undefined) this.byId.set(entry.id, rel);
      else this.byId.set(entry.id, typeof names === 'string' ? new Set([names, rel]) : names.add(rel));
      if (entry.nlink > 1 || names !== undefined) for (const name of this.namesOf(entry.id)) this.linked.add(name);
    }
    const slash = rel.lastIndexOf('/');
    if (rel !== '') (this.entries.get(slash < 0 ? '' : rel.slice(0, slash)) as FolderEntry | undefined)?.children.add(rel.slice(slash + 1));
    if (this.bytes > this.limits.maxTotalBytes && this.tooLarge === null) {
      this.tooLarge = `the project's tracked files hold more than ${sizeText(this.limits.maxTotalBytes)}, more than Mino keeps in memory to capture a command's changes`;
    }
  }

  /** Removes `rel` (not what is under it) and takes it out of its folder's tracked entries. */
  remove(rel: string): void {
    this.forget(rel);
    this.entries.delete(rel);
    if (rel !== '') (this.entries.get(parentOf(rel)) as FolderEntry | undefined)?.children.delete(path.posix.basename(rel));
  }

  /** The tracked names of the file with this identity. */
  namesOf(id: string): readonly string[] {
    const names = this.byId.get(id);
    return names === undefined ? [] : typeof names === 'string' ? [names] : [...names];
  }

  /** `rel` and every tracked path under it, deepest first (so a folder comes after what it holds). */
  subtree(rel: string): string[] {
    const out: string[] = [];
    const visit = (at: string) => {
      const entry = this.entries.get(at);
      if (entry?.kind === 'directory') for (const name of entry.children) visit(childOf(at, name));
      if (entry) out.push(at);
    };
    visit(rel);
    return out;
  }

  absolute(rel: string): string {
    // `rel` is made of names listed in the project, so it needs no normalizing.
    return rel === '' ? this.root : `${this.root}${path.sep}${rel}`;
  }

  private forget(rel: string): void {
    const old = this.entries.get(rel);
    if (old?.kind !== 'file') return;
    if (old.content) this.bytes -= old.content.length;
    this.linked.delete(rel);
    const names = this.byId.get(old.id);
    if (names === rel) this.byId.delete(old.id);
    else if (typeof names !== 'string' && names?.delete(rel) && names.size === 1) this.byId.set(old.id, [...names][0]!);
  }
}

/** What a tracked entry stands for in a change record; null for one whose content was not kept (or a special file). */
export function imageOf(entry: Entry | null): SeenImage | null {
  if (entry === null) return { kind: 'absent' };
  switch (entry.kind) {
    case 'file':
      return entry.content ? { kind: 'file', content: entry.content, mode: entry.mode } : null;
    case 'directory':
      return { kind: 'directory', mode: entry.mode };
    case 'symlink':
      return { kind: 'symlink', target: entry.target };
    case 'other':
      return null;
  }
}

/** Whether two entries hold the same thing (content, permission bits, target); the stat times do not count. */
export function sameContent(a: Entry, b: Entry): boolean {
  if (a.kind === 'file' && b.kind === 'file') {
    if (a.content && b.content) return a.mode === b.mode && a.content.equals(b.content);
    return a.id === b.id && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
  }
  if (a.kind === 'directory' && b.kind === 'directory') return a.id === b.id && a.mode === b.mode;
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  return a.kind === 'other' && b.kind === 'other' && a.id === b.id;
}

export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

export function childOf(rel: string, name: string): string {
  return rel === '' ? name : `${rel}/${name}`;
}

/** The project path for a tracked path. */
export function projectPathOf(rel: string): ProjectPath {
  return (rel === '' ? '.' : rel) as ProjectPath;
}

/** "4 MiB", "512 KiB", "100 bytes": a cap as a person reads it. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function readLink(abs: string, id: string): Entry {
  try {
    const target = fs.readlinkSync(abs);
    // A link's target is text to every tool Mino has; one that is not (or is empty) is kept as a special file.
    return target === '' || target.includes('\uFFFD') ? { kind: 'other', id } : { kind: 'symlink', target };
  } catch {
    // ignore: replaced between the lstat and the read; the watch has seen that and it is read again
    return { kind: 'other', id };
  }
}

function fileEntry(stat: fs.Stats, content: Buffer | null): FileEntry {
  const id = `${stat.dev}:${stat.ino}`;
  return { kind: 'file', id, nlink: stat.nlink, mode: stat.mode & 0o777, size: stat.size, ctimeMs: stat.ctimeMs, mtimeMs: stat.mtimeMs, content };
}

/** Where files are read before their bytes are copied out at their exact size (small ones then share Node's buffer pool, which spares the collector). */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/** Exactly `size` bytes from the open file; null when it holds more or fewer now (it changed after the stat). */
function readAll(fd: number, size: number): Buffer | null {
  // One byte more than the size shows a file that grew after the stat.
  if (scratch.length < size + 1) scratch = Buffer.allocUnsafeSlow(size + 1);
  let length = 0;
  for (;;) {
    const read = fs.readSync(fd, scratch, length, size + 1 - length, length);
    length += read;
    if (read === 0 || length === size + 1) break;
  }
  return length === size ? Buffer.from(scratch.subarray(0, size)) : null;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // ignore: a read-only descriptor; nothing was written through it
  }
}
