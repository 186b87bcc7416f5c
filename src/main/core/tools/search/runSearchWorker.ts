// Runs a search job in worker threads, so main's event loop never waits on a
// walk or a match, and ends them when they stop making progress or the turn
// is stopped.
//
// A search is shared among as many workers as there are cores (at most
// MAX_WORKERS): each lists every folder and searches its share of the files
// (walk.ts), and the answer is put together here (mergeParts.ts). find_files
// only walks, and takes one worker. Workers are kept, idle and not holding
// the process open, for the next search: a new one compiles its code cold,
// which made a search of 50,000 files a third slower.
//
// Each worker bumps a shared counter for every entry it looks at and every
// file it searches. The watchdog here reads the counters every tick: when
// one has not moved from one tick to the next, its worker spent a whole tick
// on one file, which no sensible pattern does on a file of at most 1 MiB,
// and the job's workers are ended. A pattern that backtracks without end,
// such as (a+)+$ on a long line, is so stopped within two ticks. The verdict
// reads only the counters, never which of a timer and a message arrived
// first, so a busy main thread (its timers late) cannot end working workers.
import * as os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { searchAnswer } from './mergeParts';
import type { Job, JobReply, SearchPart, WorkerReply, WorkerRequest } from './searchJob';
import { workerScript, type WorkerScript } from './workerScript';

/** Default watchdog tick: a stuck pattern is ended within two (under a second), and no sensible one spends this long on one file. */
export const WATCHDOG_TICK_MS = 400;
/** More workers than this would only compete for the disk. */
const MAX_WORKERS = 4;

export interface WorkerRunOptions {
  /** Aborted when the person stops the turn: the workers are ended at once. */
  signal?: AbortSignal;
  /** The watchdog's tick; tests make it short. */
  tickMs?: number;
}

const idle: Worker[] = [];
let busy = 0;
let live = 0;

/** Workers running a job, waiting for the next, and alive at all: for tests to see that a stopped job's workers are gone. */
export function searchWorkerCounts(): { busy: number; idle: number; live: number } {
  return { busy, idle: idle.length, live };
}

export async function runSearchWorker(job: Job, options: WorkerRunOptions = {}): Promise<JobReply> {
  if (options.signal?.aborted) return stoppedReply();
  let script: WorkerScript;
  try {
    script = await workerScript();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'error', output: `Mino could not start its search: ${message}. Tell the user; use read_file and list_dir meanwhile.` };
  }
  const count = job.kind === 'search' ? Math.min(MAX_WORKERS, Math.max(1, os.availableParallelism())) : 1;
  const workers = Array.from({ length: count }, () => idle.pop() ?? start(script));
  busy += workers.length;
  for (const worker of workers) worker.ref();
  const requests: WorkerRequest[] = workers.map((_, index) => ({ job, part: { index, count }, progress: new SharedArrayBuffer(4) }));
  const outcome = await watch(workers, requests, options);
  busy -= workers.length;
  if (outcome.ended) return outcome.reply;
  for (const worker of workers) {
    worker.unref();
    if (idle.length < MAX_WORKERS) idle.push(worker);
    else void worker.terminate();
  }
  return outcome.reply;
}

function start(script: WorkerScript): Worker {
  // node:worker_threads is loaded by the first search rather than by every start of `mino`.
  const { Worker: WorkerThread } = process.getBuiltinModule('node:worker_threads');
  const worker = 'file' in script ? new WorkerThread(script.file, { execArgv: [] }) : new WorkerThread(script.code, { eval: true, execArgv: [] });
  live++;
  // An idle worker that dies (it should not) is simply not reused.
  worker.once('exit', () => {
    live--;
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
  });
  return worker;
}

/**
 * The answer of a job sent to its workers: put together from their replies,
 * or the reason they were ended (`ended`: they have stopped when this settles).
 */
function watch(workers: Worker[], requests: WorkerRequest[], options: WorkerRunOptions): Promise<{ reply: JobReply; ended: boolean }> {
  return new Promise((resolve) => {
    const counters = requests.map((request) => new Int32Array(request.progress));
    const seen = counters.map(() => 0);
    const replies: Array<WorkerReply | undefined> = workers.map(() => undefined);
    let settled = false;
    const detach: Array<() => void> = [];
    const finish = (reply: JobReply, end: boolean): void => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      for (const undo of detach) undo();
      if (!end) resolve({ reply, ended: false });
      else void Promise.all(workers.map((worker) => worker.terminate())).then(() => resolve({ reply, ended: true }));
    };
    const onAbort = (): void => finish(stoppedReply(), true);
    const watchdog = setInterval(() => {
      counters.forEach((counter, i) => {
        const now = Atomics.load(counter, 0);
        // Zero: the worker is still loading; its deadline starts with its first tick. A worker that replied is done.
        if (replies[i] === undefined && now !== 0 && now === seen[i]) finish(tooSlowReply(requests[i].job), true);
        seen[i] = now;
      });
    }, options.tickMs ?? WATCHDOG_TICK_MS);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    detach.push(() => options.signal?.removeEventListener('abort', onAbort));
    workers.forEach((worker, i) => {
      const onMessage = (reply: WorkerReply): void => {
        replies[i] = reply;
        if (replies.every((r) => r !== undefined)) finish(combine(replies as WorkerReply[], requests[0].job), false);
      };
      const onError = (error: Error): void => finish({ status: 'failed', output: `The search failed: ${error.message}. Try again, or narrow the path.` }, true);
      const onExit = (code: number): void => finish({ status: 'failed', output: `The search stopped before it answered (exit code ${code}). Try again, or narrow the path.` }, true);
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      detach.push(() => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      });
      worker.postMessage(requests[i]);
    });
    if (options.signal?.aborted) onAbort();
  });
}

/** One answer from the workers' replies: a reply that is already an answer (an error, find_files' list) is it. */
function combine(replies: WorkerReply[], job: Job): JobReply {
  const answer = replies.find((reply) => reply.kind === 'reply');
  if (answer) return answer.reply;
  const parts = replies as SearchPart[];
  return { status: 'completed', output: searchAnswer(parts, job.kind === 'search' ? job.context : 0, job.maxResults) };
}

function stoppedReply(): JobReply {
  return { status: 'failed', output: 'The turn was stopped; the search was ended before it finished, and nothing was found.' };
}

function tooSlowReply(job: Job): JobReply {
  const what = job.kind === 'search' ? 'The pattern' : 'The walk';
  return {
    status: 'failed',
    output:
      `${what} made no progress on one file for too long, so the search was ended; nothing was found. ` +
      'A regular expression with nested repetition, such as (a+)+ or (.*)*, can take exponential time on a long line: ' +
      'simplify the pattern, or send "fixed_strings": true to search for literal text.',
  };
}
