// The watch of one project, through which what a sandboxed command changes is
// captured with its pre-images. Chosen by measurement (bench/sandbox.bench.ts
// and the report of issue 23): on a 10,000-file project an lstat of every
// file costs 30-45 ms and reading every file 70-200 ms, so neither can be
// paid before and after each command; bubblewrap 0.8 (Debian 12, Ubuntu
// 24.04) has no overlay to divert a command's writes. So:
//
//   - The first sandboxed command walks the project once into a baseline
//     (baseline.ts: every tracked file's bytes, within caps, and stat) and
//     watches every tracked folder (fs.watch, inotify, not recursive).
//   - From then on the watch keeps the baseline current: what changes between
//     commands (the person's editor, Mino's own file tools) is re-read before
//     the next command starts, at a cost in proportion to what changed.
//   - During a command the events name what it touched. After its last
//     process has ended, a sentinel (watchDrain.ts) shows every event has
//     arrived; each touched path is then compared with the baseline
//     (reconcile.ts), and what differs is the command's change, with the
//     baseline as its pre-image. A command that changed nothing costs two
//     sentinel round trips (well under a millisecond).
//
// A pre-image that is wrong would let undo destroy the person's work, so
// whenever events may have been lost (too many at once, a folder that could
// not be watched, a watch error) the command's changes are said not to be
// captured, and the project is walked again before the next command.
// Known limits, said in the report of issue 23: a write through a shared
// memory mapping (mmap) raises no inotify event; and a change the person
// makes while a command runs is taken for the command's (the git guard has
// the same caveat).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IgnoreRules, MAX_RULES_FILE_BYTES } from '../fs/ignoreRules';
import { errorText, log } from '../log/log';
import type { CapturedCommand } from '../tools/types';
import { Baseline, childOf, type CaptureLimits } from './baseline';
import { CaptureUnsure, Reconciler, type FolderWatches } from './reconcile';
import { eventsDelivered, countEvent, type Sentinel } from './watchDrain';

/** How long a walk or comparison may hold the event loop before it yields. */
const SLICE_MS = 8;

export const OVERLAPPING =
  'another command was running in this project at the same time, so what each changed cannot be told apart';

export class ProjectWatch implements FolderWatches {
  private baseline: Baseline | null = null;
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private touched = new Set<string>();
  /** Why the baseline cannot be trusted; the project is walked again before the next command. */
  private unsure: string | null = null;
  /** Why nothing in this project can be captured for as long as this watch lives (too many folders, no watches left). */
  private tooLarge: string | null = null;
  private rulesStale = false;
  private excludeStamp = '';
  private countAtDrain = 0;
  /** The command being watched, if one is. */
  private window: { overlapped: boolean } | null = null;
  /** The look at every file between commands (startAudit), while it runs. */
  private audit: { stop: boolean; done: Promise<void> } | null = null;
  private closed = false;

  constructor(
    readonly root: string,
    private readonly limits: CaptureLimits,
    private readonly sentinel: Sentinel,
    /** Events between two sentinels at which some may have been lost (watchDrain.ts). */
    private readonly lossThreshold: number,
  ) {}

  get watching(): boolean {
    return this.window !== null;
  }

  /**
   * Brings the baseline up to date and starts watching a command; from the
   * return on, what changes in the project is taken for the command's.
   * Returns why its changes cannot be captured instead, when they cannot.
   */
  async begin(): Promise<{ window: { overlapped: boolean } } | { notCaptured: string }> {
    if (this.window) {
      this.window.overlapped = true;
      return { notCaptured: OVERLAPPING };
    }
    const window = { overlapped: false };
    this.window = window;
    if (this.audit) this.audit.stop = true;
    try {
      await this.bringUpToDate();
    } catch (error) {
      this.window = null;
      return { notCaptured: this.failure(error) };
    }
    if (this.tooLarge) {
      this.window = null;
      // Nothing will be captured here: the contents and watches go, until this project's watch is made again.
      this.close();
      return { notCaptured: this.tooLarge };
    }
    return { window };
  }

  /** After every process of the command has ended: what it changed, compared with the baseline. Never throws. */
  async finish(window: { overlapped: boolean }): Promise<CapturedCommand> {
    try {
      if (!(await this.drain())) this.unsure ??= 'the file watch did not answer in time';
      if (this.unsure) return { captured: false, reason: this.unsure };
      const collect = !window.overlapped;
      const seen = await new Reconciler(this.baseline!, this, collect, pauser()).run(this.takeTouched());
      if (seen.rulesChanged) this.rulesStale = true;
      if (this.baseline!.tooLarge) this.tooLarge = this.baseline!.tooLarge;
      if (this.tooLarge) return { captured: false, reason: this.tooLarge };
      if (!collect) return { captured: false, reason: OVERLAPPING };
      return { captured: true, changes: seen.changes, missed: seen.missed, ignored: seen.ignored };
    } catch (error) {
      return { captured: false, reason: this.failure(error) };
    } finally {
      this.window = null;
      this.startAudit();
    }
  }

  /** The command did not run; what changed meanwhile is absorbed before the next one. */
  abandon(window: { overlapped: boolean }): void {
    if (this.window === window) this.window = null;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.baseline = null;
  }

  add(rel: string): void {
    if (this.watchers.has(rel)) return;
    if (this.watchers.size >= this.limits.maxFolders) {
      this.tooLarge = `the project has more than ${this.limits.maxFolders.toLocaleString('en-US')} folders to watch`;
      throw new CaptureUnsure(this.tooLarge);
    }
    const abs = rel === '' ? this.root : path.join(this.root, rel);
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(abs, { persistent: false }, (_event, name) => this.onEvent(rel, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Gone since it was listed: its folder's own watch has seen it go, and it is compared again.
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      if (code === 'ENOSPC') this.tooLarge = 'the system allows no more file watches (raise fs.inotify.max_user_watches)';
      throw new CaptureUnsure(this.tooLarge ?? `the folder ${rel || '.'} could not be watched (${code ?? errorText(error)})`);
    }
    watcher.on('error', (error) => {
      this.unsure = `the watch of ${rel || '.'} failed (${errorText(error)})`;
      log.warn('capture.watch_error', { root: this.root, folder: rel, error: errorText(error) });
    });
    this.watchers.set(rel, watcher);
  }

  remove(rel: string): void {
    this.watchers.get(rel)?.close();
    this.watchers.delete(rel);
  }

  /**
   * Between commands, a look at every tracked file by stat. A change that
   * raised no event (a write through a shared memory mapping, which inotify
   * does not report; a hard link's other name outside the project) leaves
   * the baseline stale, and a stale baseline is a wrong pre-image for the
   * next command that changes the file. The look finds such a file and has
   * it read again before the next command; it runs in slices, yields at once
   * to a command that starts (never delaying it), and keeps no process alive.
   * Left: a change without an event made within the few milliseconds before
   * a command starts, or by a command that runs right after the last one.
   */
  private startAudit(): void {
    if (this.audit || !this.baseline || this.closed) return;
    const pass = { stop: false, done: Promise.resolve() };
    this.audit = pass;
    pass.done = this.auditPass(pass, this.baseline).finally(() => {
      if (this.audit === pass) this.audit = null;
    });
  }

  /** Resolves once the look at every file after the last command has ended (a test or benchmark waits for it). */
  async audited(): Promise<void> {
    if (!this.audit) return;
    // The look keeps no process alive on its own; one that waits for it must be kept alive meanwhile.
    const alive = setInterval(() => undefined, 60_000);
    try {
      await this.audit.done;
    } finally {
      clearInterval(alive);
    }
  }

  private async auditPass(pass: { stop: boolean }, baseline: Baseline): Promise<void> {
    // Not one stat before the command's result is on its way.
    await new Promise((resolve) => setTimeout(resolve, 0).unref());
    let sliceStart = performance.now();
    for (const [rel, entry] of baseline.entries) {
      if (pass.stop || this.baseline !== baseline) return;
      if (entry.kind === 'file' && statMoved(baseline, rel)) this.touched.add(rel);
      if (performance.now() - sliceStart < SLICE_MS) continue;
      await new Promise((resolve) => setTimeout(resolve, 0).unref());
      sliceStart = performance.now();
    }
  }

  private onEvent(folder: string, name: string | null): void {
    countEvent();
    if (this.closed) return;
    // The folder itself is read again too: an event may mean an entry was made, removed or renamed in it.
    this.touched.add(folder);
    if (name) this.touched.add(childOf(folder, name));
  }

  private async bringUpToDate(): Promise<void> {
    if (this.tooLarge) return;
    if (this.baseline && !this.unsure && !this.rulesStale && (await this.excludeStampNow()) === this.excludeStamp) {
      try {
        if (await this.drain()) {
          await this.absorb();
          if (!this.unsure) return;
        }
      } catch (error) {
        // ignore: what the record could not follow (a folder that cannot be listed now) is read afresh by the walk below
        if (!(error instanceof CaptureUnsure) || this.tooLarge) throw error;
      }
    }
    await this.walkAll();
    // What changed during the walk is read again, so it is not taken for the command's.
    if (!(await this.drain())) throw new CaptureUnsure('the file watch did not answer in time');
    await this.absorb();
    if (this.unsure) throw new CaptureUnsure(this.unsure);
  }

  /** Re-reads what changed since the last look, and the files that have other names, which change without an event for these. */
  private async absorb(): Promise<void> {
    const baseline = this.baseline!;
    const touched = this.takeTouched();
    for (const rel of baseline.linked) if (statMoved(baseline, rel)) touched.add(rel);
    const seen = await new Reconciler(baseline, this, false, pauser()).run(touched);
    if (seen.rulesChanged) this.rulesStale = true;
    if (baseline.tooLarge) this.tooLarge = baseline.tooLarge;
  }

  private async walkAll(): Promise<void> {
    this.close();
    this.closed = false;
    this.unsure = null;
    this.rulesStale = false;
    const exclude = await readExclude(this.root);
    this.excludeStamp = exclude.stamp;
    this.baseline = new Baseline(this.root, IgnoreRules.fromText(this.root, exclude.text), this.limits);
    this.touched = new Set();
    this.countAtDrain = eventsDelivered();
    const started = performance.now();
    await new Reconciler(this.baseline, this, false, pauser()).walk('');
    if (this.baseline.tooLarge) this.tooLarge = this.baseline.tooLarge;
    log.info('capture.walked', { root: this.root, entries: this.baseline.entries.size, bytes: this.baseline.bytes, ms: Math.round(performance.now() - started) });
  }

  /** Waits until every event so far has arrived; notes when too many arrived at once for none to have been lost. */
  private async drain(): Promise<boolean> {
    const drained = await this.sentinel.drain();
    const count = eventsDelivered() - this.countAtDrain;
    this.countAtDrain = eventsDelivered();
    if (count >= this.lossThreshold) {
      this.unsure = `too many files changed at once (${count.toLocaleString('en-US')} events) for the file watch to be sure it saw every change`;
    }
    return drained;
  }

  private takeTouched(): Set<string> {
    const touched = this.touched;
    this.touched = new Set();
    return touched;
  }

  private async excludeStampNow(): Promise<string> {
    return (await readExclude(this.root, false)).stamp;
  }

  private failure(error: unknown): string {
    if (error instanceof CaptureUnsure) {
      this.unsure = error.message;
      return error.message;
    }
    this.unsure = `the project could not be read (${errorText(error)})`;
    log.warn('capture.failed', { root: this.root, error: errorText(error) });
    return this.unsure;
  }
}

/** A slice timer: resolves at once until the slice is used up, then after the event loop has had a turn. */
function pauser(): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}

/** Whether a file's stat no longer matches the baseline's (a change through a name outside the project leaves no event here). */
function statMoved(baseline: Baseline, rel: string): boolean {
  const entry = baseline.entries.get(rel);
  if (entry?.kind !== 'file') return false;
  try {
    const stat = fs.lstatSync(baseline.absolute(rel));
    return `${stat.dev}:${stat.ino}` !== entry.id || stat.ctimeMs !== entry.ctimeMs || stat.size !== entry.size;
  } catch {
    // ignore: gone, which the comparison itself finds
    return true;
  }
}

/** The project's `.git/info/exclude` (rules below every .gitignore) and a stamp that changes whenever it does. */
async function readExclude(root: string, withText = true): Promise<{ stamp: string; text: string | null }> {
  const file = path.join(root, '.git', 'info', 'exclude');
  try {
    const stat = await fs.promises.lstat(file, { bigint: true });
    const stamp = `${stat.ino}:${stat.size}:${stat.ctimeNs}`;
    if (!stat.isFile() || stat.size > BigInt(MAX_RULES_FILE_BYTES) || !withText) return { stamp, text: null };
    return { stamp, text: await fs.promises.readFile(file, 'utf8') };
  } catch {
    // ignore: no exclude file (the usual case), or none this account can read, which git could not read either
    return { stamp: 'none', text: null };
  }
}
