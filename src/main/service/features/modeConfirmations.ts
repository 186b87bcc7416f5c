// One-time tickets that tie a loosening to the warning the service showed.
// A looser mode is set only with the id the service issued with its warning,
// for the same window, session and mode, once, and only for a short while:
// no replay, no stale or cross-window confirmation, no loosening without the
// warning having been sent. It cannot prove a person read it: the window that
// shows the warning is the one that answers, as with approvals.
import { randomUUID } from 'node:crypto';
import type { PermissionMode, SessionId } from '../../../shared/domain';
import type { ClientId } from '../clients';

/** Long enough to read the warning; short enough that a forgotten dialog does not loosen later. */
export const MODE_CONFIRMATION_TTL_MS = 2 * 60_000;

interface Pending {
  client: ClientId;
  sessionId: SessionId;
  mode: PermissionMode;
  expiresAt: number;
}

export class ModeConfirmations {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = MODE_CONFIRMATION_TTL_MS,
  ) {}

  /** A new id for this warning. A window has at most one: an earlier warning it was shown is void. */
  issue(client: ClientId, sessionId: SessionId, mode: PermissionMode): string {
    this.prune();
    for (const [id, entry] of this.pending) if (entry.client === client) this.pending.delete(id);
    const id = randomUUID();
    this.pending.set(id, { client, sessionId, mode, expiresAt: this.now() + this.ttlMs });
    return id;
  }

  /** Uses up the id; true only if it was issued to this window, for this session and mode, and has not expired. */
  redeem(id: string, client: ClientId, sessionId: SessionId, mode: PermissionMode): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    return entry.client === client && entry.sessionId === sessionId && entry.mode === mode && this.now() <= entry.expiresAt;
  }

  /** The session closed: a warning shown for it can no longer be answered. */
  forgetSession(sessionId: SessionId): void {
    for (const [id, entry] of this.pending) if (entry.sessionId === sessionId) this.pending.delete(id);
  }

  private prune(): void {
    const now = this.now();
    for (const [id, entry] of this.pending) if (now > entry.expiresAt) this.pending.delete(id);
  }
}
