// Naming a saved session that no one has open: its lock is taken for the one
// record, so a window or a CLI continuing it cannot interleave with it. A
// session open in this process is renamed through its own Conversation.
import { checkedSessionTitle } from '../../../shared/sessionTitle';
import { lockSession } from '../locks/sessionLock';
import { SessionLog } from '../sessions/sessionLog';

/** Saves `title` as the session's name; throws SessionLockedError if another writer has it open. */
export async function renameSavedSession(homeDir: string, id: string, title: string, owner: string): Promise<string> {
  const checked = checkedSessionTitle(title);
  const lock = lockSession(homeDir, id, owner);
  try {
    const log = await SessionLog.openForAppend(homeDir, id);
    try {
      await log.append({ type: 'title', title: checked });
    } finally {
      await log.close();
    }
  } finally {
    lock.release();
  }
  return checked;
}
