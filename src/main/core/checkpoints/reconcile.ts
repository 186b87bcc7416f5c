// Brings the baseline (baseline.ts) up to date for the paths the watch saw
// touched, and says what changed: each touched path, what it held (the
// baseline) against what it holds now. A folder touched is listed again, so
// what was made, removed or renamed in it shows even where the names in the
// events no longer lead anywhere (a folder renamed while its watch still
// names it by its old path). A folder that is new is walked whole: all it
// holds is new. One that went, or was replaced, has everything the baseline
// held under it removed. A file written through one of its names changed
// under all of them (hard links), so those are compared too.
//
// Between commands the same pass absorbs what the person (or Mino's file
// tools) changed, recording nothing; after a command it records the changes.
import type { FileEntry, FolderEntry, Entry, Untracked } from './baseline';
import { Baseline, childOf, imageOf, parentOf, projectPathOf, sameContent } from './baseline';
import type { SeenChange, SeenImage } from '../tools/types';

/** Starting and stopping the watch of one folder: the tracker's (changeWatch.ts). */
export interface FolderWatches {
  /** Starts watching the folder at `rel`; throws CaptureUnsure when it cannot. */
  add(rel: string): void;
  remove(rel: string): void;
}

/** The baseline can no longer vouch for the project: nothing can be captured until it is walked again. */
export class CaptureUnsure extends Error {
  override name = 'CaptureUnsure';
}

export interface Seen {
  /** In the order undo must take them back last first. */
  changes: SeenChange[];
  /** Changed paths whose change could not be captured, with why. */
  missed: string[];
  ignored: string[];
  /** A `.gitignore` changed: which paths are tracked may have changed, so the project is walked again before the next command. */
  rulesChanged: boolean;
}

const ABSENT: SeenImage = { kind: 'absent' };

export class Reconciler {
  readonly seen: Seen = { changes: [], missed: [], ignored: [], rulesChanged: false };
  /** Paths handled with everything under them. */
  private readonly done = new Set<string>();
  /** Paths compared in this pass. */
  private readonly compared = new Set<string>();
  /** Files met in this pass with more than one name. */
  private readonly linkedNow = new Set<string>();
  private walking = false;

  /**
   * `collect`: record what changed (after a command), or only absorb it
   * (between commands, and the first walk). `pause`: called between folders,
   * so a long walk yields to the event loop.
   */
  constructor(
    private readonly baseline: Baseline,
    private readonly watches: FolderWatches,
    private readonly collect: boolean,
    private readonly pause: () => Promise<void>,
  ) {}

  /** Compares each touched path (and the other names of a touched file) with the baseline, folders before what they hold. */
  async run(touched: Iterable<string>): Promise<Seen> {
    await this.compareAll(this.withOtherNames(touched));
    // A name made for a file already tracked (a hard link) shares its writes: the older names are compared too.
    await this.compareAll([...this.linkedNow].flatMap((id) => this.baseline.namesOf(id)).filter((rel) => !this.compared.has(rel)));
    return this.seen;
  }

  private async compareAll(paths: string[]): Promise<void> {
    for (const rel of paths.sort(byDepthThenName)) {
      if (this.isDone(rel)) continue;
      // A path whose folder is not tracked: an untracked folder's, or one handled whole already.
      if (rel !== '' && this.baseline.entries.get(parentOf(rel))?.kind !== 'directory') continue;
      await this.compare(rel);
    }
  }

  /** Walks the folder at `rel` (the project root, for a first walk) into the baseline as new. */
  async walk(rel: string): Promise<void> {
    const now = this.baseline.readNow(rel);
    if (now?.kind !== 'directory') throw new CaptureUnsure(`the project folder ${this.baseline.absolute(rel)} could not be read`);
    this.walking = true;
    await this.add(rel, now);
  }

  private withOtherNames(touched: Iterable<string>): string[] {
    const all = new Set(touched);
    for (const rel of [...all]) {
      const entry = this.baseline.entries.get(rel);
      if (entry?.kind === 'file') for (const other of this.baseline.namesOf(entry.id)) all.add(other);
    }
    return [...all];
  }

  private async compare(rel: string): Promise<void> {
    this.compared.add(rel);
    const before = this.baseline.entries.get(rel) ?? null;
    const now = this.baseline.readNow(rel);
    if (now?.kind === 'file' && now.nlink > 1) this.linkedNow.add(now.id);
    if (rel === '' && (now?.kind !== 'directory' || before?.kind !== 'directory' || now.id !== before.id)) {
      throw new CaptureUnsure('the project folder itself was moved or replaced');
    }
    if (now === null) {
      if (before !== null) this.removeAll(rel);
      return;
    }
    const why = this.baseline.untracked(rel, now.kind === 'directory');
    if (before !== null && why === null && before.kind === now.kind && (before.kind !== 'directory' || (now.kind === 'directory' && before.id === now.id))) {
      if (before.kind === 'directory') await this.sameFolder(rel, before, now as FolderEntry);
      else this.sameName(rel, before, now);
      return;
    }
    // Something else took the name (or it was made): what was there goes, what is there comes.
    if (before !== null) this.removeAll(rel);
    if (why !== null) this.untracked(rel, why);
    else await this.add(rel, now);
  }

  private async sameFolder(rel: string, before: FolderEntry, now: FolderEntry): Promise<void> {
    if (before.mode !== now.mode) this.record(rel, { kind: 'directory', mode: before.mode }, { kind: 'directory', mode: now.mode });
    before.mode = now.mode;
    const listing = this.baseline.listNow(rel);
    if (listing === null) throw new CaptureUnsure(`the folder ${rel || '.'} could not be listed any more`);
    const names = new Set<string>();
    for (const dirent of listing.sort(byName)) {
      const child = childOf(rel, dirent.name);
      if (this.baseline.untracked(child, dirent.isDirectory()) !== null) continue;
      names.add(dirent.name);
      if (!before.children.has(dirent.name) && !this.isDone(child)) await this.compare(child);
    }
    for (const name of [...before.children]) {
      const child = childOf(rel, name);
      if (!names.has(name) && !this.isDone(child)) this.removeAll(child);
    }
  }

  /** A file, link or special file whose name still holds one of its kind. */
  private sameName(rel: string, before: Entry, now: Entry): void {
    if (!sameContent(before, now)) {
      const from = imageOf(before);
      const to = imageOf(now);
      if (from && to) this.record(rel, from, to);
      else this.miss(rel, unkeptReason(from ? now : before));
    }
    this.baseline.put(rel, now);
  }

  /** Records `rel` as made, and, for a folder, everything in it: watched before it is listed, so nothing made meanwhile is missed. */
  private async add(rel: string, now: Entry): Promise<void> {
    this.addOne(rel, now);
    if (now.kind !== 'directory') return;
    this.watches.add(rel);
    const listing = this.baseline.listNow(rel);
    if (listing === null) throw new CaptureUnsure(`the folder ${rel || '.'} could not be listed`);
    this.baseline.enterFolder(rel, listing);
    await this.pause();
    for (const dirent of listing.sort(byName)) {
      const child = childOf(rel, dirent.name);
      const why = this.baseline.untracked(child, dirent.isDirectory());
      if (why !== null) {
        this.untracked(child, why);
        continue;
      }
      const entry = this.baseline.readNow(child, dirent.isFile());
      if (entry?.kind === 'file' && entry.nlink > 1) this.linkedNow.add(entry.id);
      // A folder is walked in its turn; anything else is recorded here and now (a first walk meets thousands of files).
      if (entry?.kind === 'directory') await this.add(child, entry);
      else if (entry) this.addOne(child, entry);
    }
  }

  private addOne(rel: string, now: Entry): void {
    this.done.add(rel);
    const to = imageOf(now);
    if (to) this.record(rel, ABSENT, to);
    else this.miss(rel, unkeptReason(now));
    this.baseline.put(rel, now);
  }

  /** Records `rel` and everything the baseline holds under it as gone, what it holds first. */
  private removeAll(rel: string): void {
    for (const at of this.baseline.subtree(rel)) {
      const entry = this.baseline.entries.get(at)!;
      const from = imageOf(entry);
      if (from) this.record(at, from, ABSENT);
      else this.miss(at, unkeptReason(entry));
      if (entry.kind === 'directory') this.watches.remove(at);
      this.baseline.remove(at);
    }
    this.done.add(rel);
  }

  private untracked(rel: string, why: Untracked): void {
    if (!this.collect || why === 'git') return;
    if (why === 'ignored') this.seen.ignored.push(rel);
    else this.miss(rel, why === 'protected' ? 'a protected file, whose content Mino never keeps' : 'its name cannot be written back (a backslash, or bytes that are not UTF-8)');
  }

  private record(rel: string, before: SeenImage, after: SeenImage): void {
    // A first walk applies each folder's rules as it enters it; later, a changed `.gitignore` makes the rules stale.
    if (!this.walking && (rel === '.gitignore' || rel.endsWith('/.gitignore'))) this.seen.rulesChanged = true;
    if (this.collect) this.seen.changes.push({ path: projectPathOf(rel), before, after });
  }

  private miss(rel: string, why: string): void {
    if (this.collect) this.seen.missed.push(`${rel}: ${why}`);
  }

  private isDone(rel: string): boolean {
    for (let at = rel; ; at = parentOf(at)) {
      if (this.done.has(at)) return true;
      if (at === '') return false;
    }
  }
}

function unkeptReason(entry: Entry): string {
  if (entry.kind === 'file') return (entry as FileEntry).unkept ?? 'its content was not kept';
  return 'a special file (a pipe, socket or device), which Mino does not capture';
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function byDepthThenName(a: string, b: string): number {
  const depth = (rel: string) => (rel === '' ? 0 : rel.split('/').length);
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
}
