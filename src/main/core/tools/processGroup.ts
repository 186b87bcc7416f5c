// Runs one program as the leader of its own process group, so a timeout or a
// stop can end everything it started (pipelines, background children), not
// just the first process. Output is captured up to a cap as it arrives.
import { spawn } from 'node:child_process';
import { COMMAND_MARK_VARIABLE, DescendantWatch, markedProcesses, sessionMembers } from './processTree';
import { errorText, log } from '../log/log';

export interface GroupRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** How long processes get to exit after SIGTERM before the group gets SIGKILL. */
  killGraceMs: number;
  /** Cap on combined stdout and stderr kept, in bytes. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /**
   * Set as MINO_COMMAND_ID in the command's environment: every process it
   * starts inherits it, so those that left its group and session (a double
   * fork) are found and ended too, and after a crash they can be found again.
   */
  mark?: string;
  /** Each chunk of output as it arrives (also beyond the cap), for a live view. */
  onOutput?: (chunk: Buffer) => void;
  /**
   * Open descriptors the program inherits as 3, 4, ... in this order (the
   * sandbox hands bwrap its seccomp filter so). The caller still owns and
   * closes them.
   */
  inheritFds?: readonly number[];
}

export interface GroupRunOutcome {
  /** Combined stdout and stderr in arrival order, at most maxOutputBytes. */
  output: string;
  /** Bytes of output produced beyond the cap and not returned. */
  cutBytes: number;
  /** How the run ended: on its own, by the timeout, or by the abort signal. */
  ending: 'exited' | 'timed_out' | 'aborted';
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  /** Set when the program could not be started at all. */
  startError?: Error;
}

const POLL_MS = 25;
/** How long output may still arrive after the command itself exits. */
const AFTER_EXIT_GRACE_MS = 500;
/** SIGTERM-to-SIGKILL grace for what a finished command left running. */
const REAP_GRACE_MS = 100;
/** How often the command's descendants are looked for while it runs (Linux only). */
const WATCH_MS = 50;

export function runInProcessGroup(file: string, args: readonly string[], options: GroupRunOptions): Promise<GroupRunOutcome> {
  return new Promise((resolve) => {
    const output = new CappedOutput(options.maxOutputBytes);
    let ending: GroupRunOutcome['ending'] = 'exited';
    let killing: Promise<void> | null = null;
    let settled = false;

    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.mark === undefined ? options.env : { ...options.env, [COMMAND_MARK_VARIABLE]: options.mark },
      // stdin is /dev/null: a command waiting for input reads end-of-file at once.
      stdio: ['ignore', 'pipe', 'pipe', ...(options.inheritFds ?? [])],
      detached: true,
    });

    // What left the group (set -m) or the session (setsid) is found through /proc and ended with the rest.
    const watch = child.pid === undefined ? null : new DescendantWatch(child.pid);
    const watching = watch ? setInterval(() => watch.look(), WATCH_MS) : undefined;
    watching?.unref();
    const strays = (): number[] => {
      if (!watch || child.pid === undefined) return [];
      watch.look();
      const marked = options.mark === undefined ? [] : markedProcesses(options.mark);
      return [...new Set([...sessionMembers(child.pid).map((member) => member.pid), ...watch.alive(), ...marked])].filter((pid) => pid !== process.pid);
    };
    const endAll = (pgid: number, graceMs: number) => killProcessGroup(pgid, graceMs, strays);

    const finish = (outcome: Omit<GroupRunOutcome, 'output' | 'cutBytes'>) => {
      if (settled) return;
      settled = true;
      clearInterval(watching);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const text = output.text();
      resolve({ output: text.text, cutBytes: text.cutBytes, ...outcome });
    };

    const stop = (why: 'timed_out' | 'aborted') => {
      if (killing || settled || child.pid === undefined) return;
      ending = why;
      const pid = child.pid;
      killing = endAll(pid, options.killGraceMs).then(() => {
        // A process that left the group may still hold the pipes; stop waiting for it.
        if (child.exitCode !== null || child.signalCode !== null) closeStreams();
        else child.once('exit', closeStreams);
      });
    };
    const closeStreams = () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const onAbort = () => stop('aborted');

    const timer = setTimeout(() => stop('timed_out'), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    const onData = (chunk: Buffer) => {
      output.add(chunk);
      options.onOutput?.(chunk);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);

    child.on('error', (error) => {
      // Only a failure to start ends the run here; later errors still end in "close".
      if (child.pid === undefined) finish({ ending: 'exited', exitCode: null, exitSignal: null, startError: error });
    });
    // When the command itself exits, what it left behind gets a moment to finish writing (a process
    // substitution, say); then its group is ended and the output closed. So nothing it started outlives
    // the call, and nothing (not even a process that left the group) can hold the call open.
    let reaping: Promise<void> | null = null;
    let afterExit: NodeJS.Timeout | undefined;
    const reap = () => {
      if (killing || reaping || child.pid === undefined) return;
      reaping = endAll(child.pid, REAP_GRACE_MS).then(closeStreams);
    };
    child.on('exit', () => {
      if (!killing) afterExit = setTimeout(reap, AFTER_EXIT_GRACE_MS);
    });
    child.on('close', (code, signal) => {
      clearTimeout(afterExit);
      // The output is complete; background processes that do not write to it still end with the call.
      if (!killing && !reaping && child.pid !== undefined) reaping = endAll(child.pid, REAP_GRACE_MS);
      void Promise.all([killing, reaping]).then(() => finish({ ending, exitCode: code, exitSignal: signal }));
    });
  });
}

/**
 * SIGTERM to the whole group (and to the processes `strays` names: those
 * that left it), then SIGKILL to whatever is left after the grace period.
 * Resolves once all are gone or SIGKILL was sent.
 */
export async function killProcessGroup(pgid: number, graceMs: number, strays: () => number[] = () => []): Promise<void> {
  const group = signalGroup(pgid, 'SIGTERM');
  const others = strays();
  for (const pid of others) signalProcess(pid, 'SIGTERM');
  if (!group && others.length === 0) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (!signalGroup(pgid, 0) && strays().length === 0) return;
  }
  signalGroup(pgid, 'SIGKILL');
  for (const pid of strays()) signalProcess(pid, 'SIGKILL');
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ignore: the process is gone already, which is what the signal was for
  }
}

/** Sends a signal to every process in the group; false when the group no longer exists. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    // ESRCH: nothing is left. Anything else: nothing more this process can signal.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') log.warn('bash.signal_failed', { pgid, signal, error: errorText(error) });
    return false;
  }
}

/** Keeps the first `limit` bytes and counts the rest, without holding them. */
class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private cut = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.cut += Math.max(0, chunk.length - Math.max(0, room));
  }

  text(): { text: string; cutBytes: number } {
    let bytes = Buffer.concat(this.chunks);
    let cutBytes = this.cut;
    if (cutBytes > 0) {
      // Do not end on half a character: move its leading bytes to the cut part.
      const whole = completeUtf8Length(bytes);
      cutBytes += bytes.length - whole;
      bytes = bytes.subarray(0, whole);
    }
    return { text: bytes.toString('utf8'), cutBytes };
  }
}

/** Length of `bytes` without a trailing, incomplete UTF-8 sequence. */
function completeUtf8Length(bytes: Buffer): number {
  let start = bytes.length - 1;
  while (start >= 0 && bytes.length - start < 4 && (bytes[start] & 0xc0) === 0x80) start -= 1;
  if (start < 0) return bytes.length;
  const lead = bytes[start];
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < needed ? start : bytes.length;
}
