// The approval broker: the Approver behind every session's turns. An ask goes
// to the session's owning client only, one at a time per session, and only
// that client's answer to the ask it was shown counts. Anything else (a stop,
// an abort, a window that went away) resolves the ask as denied.
import { randomUUID } from 'node:crypto';
import type { SessionId } from '../../../shared/domain';
import type { ApprovalOutcome, ApprovalRequest, Approver } from '../../core/agent/approver';
import type { ClientId, ClientRegistry } from '../clients';
import type { ApprovalWaitingNotifier } from '../ports';
import { errorText, log } from '../../core/log/log';

interface Ask {
  requestId: string;
  sessionId: SessionId;
  client: ClientId;
  request: ApprovalRequest;
  shown: boolean;
  settle(outcome: ApprovalOutcome): void;
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
    this.finish(ask, outcome.approved === true ? outcome : { approved: false }, null);
    return true;
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
        settle: (outcome) => {
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
    this.clients.emitTo(ask.client, 'approval:request', {
      requestId: ask.requestId,
      sessionId: ask.sessionId,
      callId: ask.request.callId,
      toolName: ask.request.toolName,
      confirmation: ask.request.confirmation,
      ...(ask.request.position ? { position: ask.request.position } : {}),
      ...(ask.request.alwaysAllow ? { alwaysAllow: ask.request.alwaysAllow } : {}),
    });
    try {
      this.notify?.(ask.client, ask.sessionId, ask.request.toolName);
    } catch (error) {
      // A notification that cannot be shown must not turn into an answer; the dialog is still there.
      log.warn('approval.notify_failed', { session: ask.sessionId, tool: ask.request.toolName, error: errorText(error) });
    }
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
