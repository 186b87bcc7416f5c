// The approval broker: the Approver behind every session's turns. An ask goes
// to the session's owning client only, one at a time per session, and only
// that client's answer to the ask it was shown counts. Anything else (a stop,
// an abort, a window that went away) resolves the ask as denied.
// While a file-writing ask is shown, its target is watched: if the file stops
// being what the person is looking at, the ask is sent again saying so (the
// dialog then cannot approve), and a yes to it writes nothing; the recheck
// before writing stays the guarantee.
import { randomUUID } from 'node:crypto';
import type { SessionId } from '../../../shared/domain';
import type { ApprovalAnswerResult } from '../../../shared/sessions';
import type { ReviewAnswer } from '../../../shared/review';
import type { ApprovalOutcome, ApprovalRequest, Approver } from '../../core/agent/approver';
import { resolveReview } from '../../core/agent/review';
import { watchEntry } from '../../core/fs/watchEntry';
import type { ClientId, ClientRegistry } from '../clients';
import type { ApprovalWaitingNotifier } from '../ports';
import { errorText, log } from '../../core/log/log';

interface Ask {
  requestId: string;
  sessionId: SessionId;
  client: ClientId;
  request: ApprovalRequest;
  shown: boolean;
  /** The target no longer holds what the ask shows (said to the person); a yes writes nothing. */
  stale: boolean;
  stopWatching?: () => void;
  settle(outcome: ApprovalOutcome): void;
}

/** What the dialog says, before the person can approve, when the target changed on disk while it was open. */
export function targetChangedText(p: string): string {
  return `${p} changed on disk after this was shown (another window or program wrote it), so approving now would write nothing. Deny it; the model is told to read the file again.`;
}

export const STOPPED_REASON = 'The turn was stopped, so this call was denied.';

export class ApprovalBroker {
  /** Per session, asks in arrival order; the first one is the one shown. */
  private readonly queues = new Map<SessionId, Ask[]>();
  /** Shown asks by request id: the only ones an answer can reach. */
  private readonly shown = new Map<string, Ask>();

  constructor(
    private readonly clients: ClientRegistry,
    private readonly notify?: ApprovalWaitingNotifier,
  ) {}

  /** The Approver for a turn of `sessionId`, whose asks go to `client`. */
  approverFor(sessionId: SessionId, client: ClientId): Approver {
    return { approve: (request, signal) => this.enqueue(sessionId, client, request, signal) };
  }

  /** True only when `client` answered a pending ask it was shown. An outcome carries the rule the person saved with it. */
  answer(client: ClientId, requestId: string, answer: boolean | ApprovalOutcome): boolean {
    const ask = this.shown.get(requestId);
    if (!ask || ask.client !== client) return false;
    const outcome = typeof answer === 'boolean' ? { approved: answer } : answer;
    // Whatever the answer to a stale ask, nothing is written, and the model learns why.
    if (ask.stale) this.finish(ask, { approved: false, targetChanged: true }, null);
    else this.finish(ask, outcome.approved === true ? outcome : { approved: false }, null);
    return true;
  }

  /**
   * An approval with the person's review of the change (hunks rejected, or
   * their own text): main decides the content and its digest (core/agent/review.ts).
   * A review that does not fit the ask leaves it open, saying why.
   */
  answerReviewed(client: ClientId, requestId: string, review: ReviewAnswer): ApprovalAnswerResult {
    const ask = this.shown.get(requestId);
    if (!ask || ask.client !== client) return { accepted: false };
    if (ask.stale) return { accepted: this.answer(client, requestId, true) };
    const resolved = resolveReview(ask.request.review, review);
    if (!resolved.ok) return { accepted: false, open: true, message: resolved.message };
    this.finish(ask, resolved.revision ? { approved: true, revision: resolved.revision } : { approved: true }, null);
    return { accepted: true };
  }

  /** The request of a pending ask `client` was shown (for "Always allow", the rule it offered); null once it ended. */
  shownRequest(client: ClientId, requestId: string): { sessionId: SessionId; request: ApprovalRequest } | null {
    const ask = this.shown.get(requestId);
    return ask && ask.client === client ? { sessionId: ask.sessionId, request: ask.request } : null;
  }

  /** Denies every ask of the session, closing a shown dialog with `reason` when its client is still there. */
  denyAll(sessionId: SessionId, reason: string): void {
    const queue = this.queues.get(sessionId) ?? [];
    this.queues.delete(sessionId);
    // Emptied first, so no queued ask is shown just to be closed.
    for (const ask of queue) this.close(ask, { approved: false }, reason);
  }

  /** How many asks of the session wait (shown or queued). */
  pending(sessionId: SessionId): number {
    return this.queues.get(sessionId)?.length ?? 0;
  }

  private enqueue(sessionId: SessionId, client: ClientId, request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalOutcome> {
    if (signal?.aborted || !this.clients.has(client)) return Promise.resolve({ approved: false });
    return new Promise<ApprovalOutcome>((resolve) => {
      const onAbort = () => this.finish(ask, { approved: false }, STOPPED_REASON);
      const ask: Ask = {
        requestId: randomUUID(),
        sessionId,
        client,
        request,
        shown: false,
        stale: false,
        settle: (outcome) => {
          ask.stopWatching?.();
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.queues.get(sessionId) ?? [];
      queue.push(ask);
      this.queues.set(sessionId, queue);
      if (queue.length === 1) this.show(ask);
    });
  }

  private show(ask: Ask): void {
    ask.shown = true;
    this.shown.set(ask.requestId, ask);
    const target = ask.request.target;
    if (target) {
      ask.stopWatching = watchEntry(target.dir, target.name, () => this.recheckTarget(ask));
      // It may have changed between the inspection and the watch.
      ask.stale = !target.isCurrent();
    }
    this.emitRequest(ask);
    try {
      this.notify?.(ask.client, ask.sessionId, ask.request.toolName);
    } catch (error) {
      // A notification that cannot be shown must not turn into an answer; the dialog is still there.
      log.warn('approval.notify_failed', { session: ask.sessionId, tool: ask.request.toolName, error: errorText(error) });
    }
  }

  private emitRequest(ask: Ask): void {
    const { request } = ask;
    this.clients.emitTo(ask.client, 'approval:request', {
      requestId: ask.requestId,
      sessionId: ask.sessionId,
      callId: request.callId,
      toolName: request.toolName,
      confirmation: request.confirmation,
      ...(request.position ? { position: request.position } : {}),
      ...(request.alwaysAllow ? { alwaysAllow: request.alwaysAllow } : {}),
      ...(request.review ? { review: request.review } : {}),
      ...(ask.stale && request.target ? { targetChanged: targetChangedText(request.target.path) } : {}),
    });
  }

  /** The watched target moved: the ask is sent again when whether it still holds what was shown changed. */
  private recheckTarget(ask: Ask): void {
    if (!ask.request.target || this.shown.get(ask.requestId) !== ask) return;
    const stale = !ask.request.target.isCurrent();
    if (stale === ask.stale) return;
    ask.stale = stale;
    this.emitRequest(ask);
  }

  /** Resolves an ask once; `closedReason` tells a still-present client to close the dialog it was shown. */
  private finish(ask: Ask, outcome: ApprovalOutcome, closedReason: string | null): void {
    const queue = this.queues.get(ask.sessionId);
    const index = queue?.indexOf(ask) ?? -1;
    if (!queue || index < 0) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.queues.delete(ask.sessionId);
    this.close(ask, outcome, closedReason);
    const next = queue[0];
    if (next && !next.shown) this.show(next);
  }

  private close(ask: Ask, outcome: ApprovalOutcome, closedReason: string | null): void {
    if (ask.shown) {
      this.shown.delete(ask.requestId);
      if (closedReason !== null) this.clients.emitTo(ask.client, 'approval:closed', { requestId: ask.requestId, reason: closedReason });
    }
    ask.settle(outcome);
  }
}
