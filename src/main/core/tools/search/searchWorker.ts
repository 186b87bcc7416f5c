// The search tools' worker thread: answers one request after another (a
// worker is kept for the next search while idle: its compiled code stays
// warm). Started by runSearchWorker.ts, which ends it when its progress count
// stops moving (a pattern that backtracks without end) or the turn is stopped.
import { parentPort } from 'node:worker_threads';
import { runRequest } from './runJob';
import type { WorkerReply, WorkerRequest } from './searchJob';

parentPort?.on('message', (request: WorkerRequest) => {
  const progress = new Int32Array(request.progress);
  const tick = (): void => {
    Atomics.add(progress, 0, 1);
  };
  let reply: WorkerReply;
  try {
    // The first tick arms the watchdog.
    tick();
    reply = runRequest(request, tick);
  } catch (error) {
    reply = failedReply(error);
  }
  parentPort?.postMessage(reply);
});

/** An error in the search itself (a bug, or memory) ends this request, not the worker. */
function failedReply(error: unknown): WorkerReply {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'reply', reply: { status: 'failed', output: `The search failed: ${message}. Nothing more was found; try again, or narrow the path.` } };
}
