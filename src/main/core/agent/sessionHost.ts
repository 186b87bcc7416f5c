// Opening a session to write to it, one way for every front end: its
// dependencies are assembled for a named owner, the session is started or
// resumed (which takes its lock, so a second opener is told that owner), and
// one close releases the log, the lock and the MCP servers together. An
// opener that assembled these parts by hand could forget one: leave a server
// running, or lock the session under no name a person recognises.
import type { SessionId } from '../../../shared/domain';
import { Conversation } from './conversation';
import { sessionDeps, type DepsOptions } from './defaultDeps';
import { discardFork, writeFork, type ForkFrom } from './forkSession';

export interface SessionHostOptions extends DepsOptions {
  /** Required here: it is what a second opener of the session is told ("desktop window", "CLI"). */
  owner: string;
}

/** A new session in a project (checked by the caller), a saved one, or a fork of a saved one (forkSession.ts). */
export type SessionToOpen = { start: string } | { resume: SessionId } | { fork: ForkFrom };

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
  let forked: SessionId | null = null;
  try {
    if ('start' in what) conversation = await Conversation.start(made.deps, what.start);
    else if ('resume' in what) conversation = await Conversation.resume(made.deps, what.resume);
    else {
      forked = await writeFork(options.homeDir, what.fork);
      conversation = await Conversation.resume(made.deps, forked);
    }
  } catch (error) {
    if (forked) await discardFork(options.homeDir, forked);
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
