// Opening and creating sessions run one at a time, so a session can never be
// bound to two clients; and a session still shutting down is waited for before
// it opens again, so two logs never append to one file.
import type { SessionId } from '../../../shared/domain';

export class SessionLock {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly closing = new Map<SessionId, Promise<void>>();

  /** Runs `work` after every earlier one has settled; a failure does not block the next. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Records that `id` is shutting down until `closed` settles. */
  closingUntil(id: SessionId, closed: Promise<void>): void {
    this.closing.set(id, closed);
    void closed.finally(() => {
      if (this.closing.get(id) === closed) this.closing.delete(id);
    });
  }

  /** Settles when `id` has finished shutting down (at once if it is not). */
  closed(id: SessionId): Promise<void> {
    return this.closing.get(id) ?? Promise.resolve();
  }

  allClosed(): Promise<void> {
    return Promise.all([...this.closing.values()]).then(() => undefined);
  }
}
