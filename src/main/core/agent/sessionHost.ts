// Opening a session to write to it, one way for every front end: its
// dependencies are assembled for a named owner, the session is started or
// resumed (which takes its lock, so a second opener is told that owner), and
// one close releases the log, the lock and the MCP servers together. An
// opener that assembled these parts by hand could forget one: leave a server
// running, or lock the session under no name a person recognises.
import type { SessionId } from '../../../shared/domain';
import { Conversation } from './conversation';
import { sessionDeps, type DepsOptions } from './defaultDeps';

export interface SessionHostOptions extends DepsOptions {
  /** Required here: it is what a second opener of the session is told ("desktop window", "CLI"). */
  owner: string;
}

/** A new session in a project (checked by the caller), or a saved one. */
export type SessionToOpen = { start: string } | { resume: SessionId };

export interface HostedSession {
  readonly conversation: Conversation;
  /** Closes the log and releases the lock, then stops the MCP servers, the servers even when closing the log fails. */
  close(): Promise<void>;
}

/**
 * Opens `what` for writing. Throws what starting or resuming throws
 * (SessionLoadError, SessionLockedError, a save error); nothing is left open then.
 */
export async function openSession(options: SessionHostOptions, what: SessionToOpen): Promise<HostedSession> {
  const made = sessionDeps(options);
  let conversation: Conversation;
  try {
    conversation = 'start' in what ? await Conversation.start(made.deps, what.start) : await Conversation.resume(made.deps, what.resume);
  } catch (error) {
    await made.close();
    throw error;
  }
  return {
    conversation,
    close: async () => {
      try {
        await conversation.close();
      } finally {
        await made.close();
      }
    },
  };
}
