// Edit and resend: a saved session continued from one of the person's earlier
// messages as a new session (a fork). The fork's log names its origin and holds
// the original's records before that message (sessions/fork.ts); the contents
// its inherited changes name are kept for it too (checkpoints/forkPreImages.ts),
// so its Changes view can undo those turns. The original is only read, so it
// stays exactly as it was and can be resumed.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionId } from '../../../shared/domain';
import { shareKeptContents } from '../checkpoints/forkPreImages';
import { checkpointsDir } from '../checkpoints/preImageStore';
import { errorText, log } from '../log/log';
import { writeForkLog } from '../sessions/fork';
import { sessionFile } from '../sessions/ids';

/** Where a fork starts: the session, and the person's message (0-based among those shown since its last clear). */
export interface ForkFrom {
  from: SessionId;
  message: number;
}

/** Writes the fork and its kept contents; returns the fork's id. Nothing is left behind when it fails. */
export async function writeFork(homeDir: string, { from, message }: ForkFrom): Promise<SessionId> {
  const forked = await writeForkLog(homeDir, from, message);
  try {
    await shareKeptContents(homeDir, from, forked.id, forked.copied);
  } catch (error) {
    await discardFork(homeDir, forked.id);
    throw error;
  }
  log.info('session.forked', { session: forked.id, from, position: forked.position });
  return forked.id;
}

/** Removes a fork that could not be opened: it was never shown to anyone, so it would only be an orphan in the list. */
export async function discardFork(homeDir: string, id: SessionId): Promise<void> {
  try {
    await fs.rm(sessionFile(homeDir, id), { force: true });
    await fs.rm(path.join(checkpointsDir(homeDir), id), { recursive: true, force: true });
  } catch (error) {
    log.warn('session.fork_discard_failed', { session: id, error: errorText(error) });
  }
}
