// The watches of the projects this process runs sandboxed commands in: one
// per project (changeWatch.ts), shared by every session of the process that
// works on it, made at its first sandboxed command and closed once no command
// has run in it for a while (the next command then walks the project again).
// The bash tool reaches them through the ChangeTracking port (tools/types.ts).
import * as fs from 'node:fs/promises';
import type { CapturedCommand, ChangeTracking, CommandWatch } from '../tools/types';
import { errorText, log } from '../log/log';
import { DEFAULT_CAPTURE_LIMITS, type CaptureLimits } from './baseline';
import { ProjectWatch } from './changeWatch';
import { lossThreshold, Sentinel } from './watchDrain';

/** How long a project's watch is kept once no command runs in it: its baseline holds memory (the project's files). */
export const DEFAULT_IDLE_MS = 15 * 60 * 1000;

export const NOT_ON_THIS_SYSTEM = "capturing a command's changes works on Linux only for now";

export interface CaptureOptions {
  limits?: Partial<CaptureLimits>;
  /** How long a watch outlives its project's last command; default DEFAULT_IDLE_MS. */
  idleMs?: number;
  /** Events between two sentinels past which some may have been lost; default half the kernel's queue bound (watchDrain.ts). A test sets a small one. */
  lossThreshold?: number;
}

export interface ChangeCapture extends ChangeTracking {
  /** Closes every watch (a test's clean-up; the app leaves them to their idle time). */
  close(): void;
  /** Resolves once every watch's look at its files after its last command has ended (ProjectWatch.audited; for tests). */
  audited(): Promise<void>;
}

interface Watched {
  watch: ProjectWatch;
  idle: NodeJS.Timeout | null;
}

/** A set of project watches. The app has one (sharedChangeCapture); a test may make its own, with small limits. */
export function changeCapture(options: CaptureOptions = {}): ChangeCapture {
  const limits: CaptureLimits = { ...DEFAULT_CAPTURE_LIMITS, ...options.limits };
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const projects = new Map<string, Watched>();

  const release = (root: string, watched: Watched) => {
    if (watched.watch.watching || projects.get(root) !== watched) return;
    if (watched.idle) clearTimeout(watched.idle);
    watched.idle = setTimeout(() => {
      if (watched.watch.watching) return;
      watched.watch.close();
      projects.delete(root);
      releaseSentinel();
    }, idleMs);
    // A watch waiting to close keeps no process alive (`mino exec` ends when its turn does).
    watched.idle.unref();
  };

  const watchedFor = async (root: string): Promise<Watched> => {
    const held = await holdSentinel();
    // Another command may have made this project's watch while the sentinel was being opened.
    const other = projects.get(root);
    if (other) {
      releaseSentinel();
      return other;
    }
    const watched: Watched = { watch: new ProjectWatch(root, limits, held, options.lossThreshold ?? lossThreshold()), idle: null };
    projects.set(root, watched);
    return watched;
  };

  return {
    async begin(projectDir: string): Promise<CommandWatch> {
      if (process.platform !== 'linux') return notCaptured(NOT_ON_THIS_SYSTEM);
      let root: string;
      let watched: Watched;
      try {
        root = await fs.realpath(projectDir);
        watched = projects.get(root) ?? (await watchedFor(root));
      } catch (error) {
        log.warn('capture.not_started', { projectDir, error: errorText(error) });
        return notCaptured(`the file watch could not be started (${errorText(error)})`);
      }
      if (watched.idle) clearTimeout(watched.idle);
      watched.idle = null;
      const started = await watched.watch.begin();
      if ('notCaptured' in started) {
        release(root, watched);
        return notCaptured(started.notCaptured);
      }
      return {
        finish: async () => {
          const captured = await watched.watch.finish(started.window);
          release(root, watched);
          return captured;
        },
        abandon: () => {
          watched.watch.abandon(started.window);
          release(root, watched);
        },
      };
    },
    async audited() {
      for (const watched of projects.values()) await watched.watch.audited();
    },
    close() {
      for (const watched of projects.values()) {
        if (watched.idle) clearTimeout(watched.idle);
        watched.watch.close();
        releaseSentinel();
      }
      projects.clear();
    },
  };
}

/** The watches of this process's sessions: made when the first session runs a sandboxed command. */
export const sharedChangeCapture: ChangeCapture = changeCapture();

function notCaptured(reason: string): CommandWatch {
  const result: CapturedCommand = { captured: false, reason };
  return { finish: async () => result, abandon: () => undefined };
}

// One sentinel serves every watch of the process (their events share one queue); it goes with the last watch.
let sentinel: Promise<Sentinel> | null = null;
let holders = 0;

async function holdSentinel(): Promise<Sentinel> {
  sentinel ??= Sentinel.open();
  try {
    const held = await sentinel;
    holders += 1;
    return held;
  } catch (error) {
    sentinel = null;
    throw error;
  }
}

function releaseSentinel(): void {
  holders -= 1;
  if (holders > 0 || !sentinel) return;
  const closing = sentinel;
  sentinel = null;
  void closing.then((held) => held.close(), () => undefined);
}
