// How the walks of a project read its folders: a few at a time. A walk waits
// on the disk, not the processor, so a few reads in flight make it several
// times faster; more only queue up in libuv's thread pool.

/** Folders read at once by the walks in this folder. */
export const PARALLEL_READS = 16;

/**
 * Runs `visit` on each item of `start`, and on each item a visit hands to
 * `more`, at most `parallel` at once. Resolves when every visit has ended;
 * rejects with the first error, after which no visit starts (those under way
 * run out on their own).
 */
export function inParallel<T>(start: readonly T[], visit: (item: T, more: (item: T) => void) => Promise<void>, parallel = PARALLEL_READS): Promise<void> {
  const pending = [...start];
  const more = (item: T) => {
    pending.push(item);
  };
  return new Promise<void>((resolve, reject) => {
    let running = 0;
    let failed = false;
    const next = () => {
      if (failed) return;
      if (running === 0 && pending.length === 0) {
        resolve();
        return;
      }
      while (running < parallel && pending.length > 0) {
        running += 1;
        visit(pending.pop()!, more).then(
          () => {
            running -= 1;
            next();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    next();
  });
}
