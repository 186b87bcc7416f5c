// Knowing that every file event that happened has been delivered. Node's
// fs.watch on Linux is inotify, and libuv reads all of a process's watches
// from one inotify descriptor, in the order the kernel queued the events,
// calling each watch back as it reads them. So an event this process causes
// itself, in a private folder it watches (the sentinel), arrives after every
// event queued before it: once it is seen, nothing that happened earlier is
// still on its way.
//
// The queue has a bound (fs.inotify.max_queued_events). Past it the kernel
// drops events and queues one overflow event, which libuv passes to no
// watch: a lost event cannot be seen. But an overflow means that many events
// were waiting at once, and those that waited are all delivered: so when
// fewer than half that bound were delivered between two sentinels, none was
// lost between them (half, since the waiting events may straddle one
// sentinel). Every event of every watch here is counted, the sentinel's too.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorText, log } from '../log/log';

let delivered = 0;

/** Counts one delivered event; every watch's callback calls it first. */
export function countEvent(): void {
  delivered += 1;
}

/** Events delivered to the watches of this process so far. */
export function eventsDelivered(): number {
  return delivered;
}

const QUEUE_BOUND_FILE = '/proc/sys/fs/inotify/max_queued_events';
/** Taken when the bound cannot be read: far below any kernel's default (16,384), so an overflow is never missed. */
const FALLBACK_QUEUE_BOUND = 1024;

let overflowThreshold: number | null = null;

/** Delivered events between two sentinels at which events may have been lost: half the kernel's queue bound. */
export function lossThreshold(): number {
  if (overflowThreshold === null) {
    let bound = FALLBACK_QUEUE_BOUND;
    try {
      const read = Number.parseInt(fs.readFileSync(QUEUE_BOUND_FILE, 'utf8'), 10);
      if (Number.isSafeInteger(read) && read > 0) bound = read;
    } catch {
      // ignore: no /proc (or not Linux); the low fallback errs towards saying a command's changes could not be captured
    }
    overflowThreshold = Math.floor(bound / 2);
  }
  return overflowThreshold;
}

const PREFIX = 'mino-watch-';
/** A drain that waits longer than this is taken as lost: the watch cannot vouch for anything then. */
const DRAIN_TIMEOUT_MS = 10_000;

/** The private folder whose events mark a point in the event queue; one per process, shared by every project's watch. */
export class Sentinel {
  private readonly waiting = new Map<string, () => void>();
  private next = 0;

  private constructor(
    private readonly dir: string,
    private readonly watcher: fs.FSWatcher,
  ) {}

  /** Makes the folder (0700, in the system's temp folder) and watches it; removes the folders of Mino processes that have ended. */
  static async open(): Promise<Sentinel> {
    await removeLeftovers();
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
    const sentinel: { value?: Sentinel } = {};
    const watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
      countEvent();
      if (typeof name === 'string') sentinel.value?.arrived(name);
    });
    watcher.on('error', (error) => log.warn('capture.sentinel_error', { dir, error: errorText(error) }));
    sentinel.value = new Sentinel(dir, watcher);
    // A process that ends with its watches open (`mino exec` leaves them to their idle time) removes the folder as it exits.
    process.once('exit', sentinel.value.removeNow);
    return sentinel.value;
  }

  /** Resolves true once every event queued before the call has been delivered; false when that could not be seen in time. */
  async drain(): Promise<boolean> {
    const name = `d${(this.next += 1)}`;
    const file = path.join(this.dir, name);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<boolean>((resolve) => {
      this.waiting.set(name, () => resolve(true));
      // Not unref'd: while a drain waits, this timer is what keeps the process alive (the watches do not).
      timer = setTimeout(() => resolve(false), DRAIN_TIMEOUT_MS);
    });
    try {
      fs.closeSync(fs.openSync(file, 'w', 0o600));
    } catch (error) {
      this.waiting.delete(name);
      clearTimeout(timer);
      log.warn('capture.sentinel_unwritable', { file, error: errorText(error) });
      return false;
    }
    const arrived = await seen;
    this.waiting.delete(name);
    clearTimeout(timer);
    fs.rm(file, { force: true }, () => undefined);
    return arrived;
  }

  close(): void {
    this.watcher.close();
    process.off('exit', this.removeNow);
    fs.rm(this.dir, { recursive: true, force: true }, () => undefined);
  }

  private readonly removeNow = (): void => {
    try {
      fs.rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // ignore: the process is ending; the next Mino removes the folder of a process that has ended
    }
  };

  private arrived(name: string): void {
    this.waiting.get(name)?.();
  }
}

/** Removes the sentinel folders of Mino processes that ended without removing theirs (killed, crashed). */
async function removeLeftovers(): Promise<void> {
  let names: string[];
  try {
    names = await fs.promises.readdir(os.tmpdir());
  } catch {
    // ignore: nothing to clean where nothing can be listed
    return;
  }
  for (const name of names) {
    const pid = Number(/^mino-watch-(\d+)-/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    await fs.promises.rm(path.join(os.tmpdir(), name), { recursive: true, force: true }).catch((error: unknown) => {
      log.debug('capture.leftover_not_removed', { name, error: errorText(error) });
    });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as someone else; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
