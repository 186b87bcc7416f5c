// What the service holds for a session open in a window, shared by the
// sessions, turns and modes features.
import type { PermissionMode, SessionId } from '../../../shared/domain';
import type { Conversation } from '../../core/agent/conversation';
import type { ClientId } from '../clients';
import type { SessionChoice } from './sessionChoice';

export interface RunningTurn {
  readonly controller: AbortController;
  /**
   * The mode the turn's calls are decided under. It only ever tightens while
   * the turn runs (see `tightenRunningTurn` in modes.ts): a loosening waits for the next turn.
   */
  mode: PermissionMode;
  /** Settles when the turn has ended and its end was reported. */
  readonly done: Promise<void>;
}

export interface OpenSession {
  readonly id: SessionId;
  readonly client: ClientId;
  readonly conversation: Conversation;
  /** Closes the log, releases the lock and stops the MCP servers (the session host's one close). */
  readonly close: () => Promise<void>;
  turn: RunningTurn | null;
  /** The first question asked, for the window title; null until there is one. */
  firstQuestion: string | null;
  /** The service and model its turns use (the model picker). */
  readonly choice: SessionChoice;
}
