// A fork of a saved session (Edit and resend): a new log whose header names the
// session it continues and the position of the person's message it replaces,
// followed by that session's records before the message, copied byte for
// byte. Positions stay what they were, so a copied compaction still names the
// right records, and the fork loads, replays and resumes like any session.
// The original is only read: nothing in any log is rewritten.
import * as path from 'node:path';
import type { SessionId } from '../../../shared/domain';
import { ensureMinoHome } from '../config/minoHome';
import { newSessionId, sessionFile } from './ids';
import { readSessionFile } from './load';
import { parseLine, splitLog } from './logLines';
import { SESSION_FORMAT_VERSION, SessionRecordSchema, type SessionRecord } from './records';
import { SessionLoadError } from './sessionErrors';
import { publishNewPrivateFile, syncDirectory } from './sessionLog';

export interface ForkedLog {
  id: SessionId;
  /** The position of the message the fork replaces, in the original. */
  position: number;
  /** The records copied into the fork (after its header). */
  copied: SessionRecord[];
}

/** The person's messages since the last clear, as a window shows them: their record positions, in order. */
export function shownMessagePositions(records: readonly SessionRecord[]): number[] {
  const lastClear = records.findLastIndex((record) => record.type === 'clear');
  const positions: number[] = [];
  records.forEach((record, index) => {
    if (index > lastClear && record.type === 'user') positions.push(index);
  });
  return positions;
}

/**
 * Writes a fork of session `from` that continues from the person's message
 * number `message` (0-based, among the messages shown since the last clear):
 * it holds everything before that message. Throws a SessionLoadError naming
 * the line when the original cannot be read that far, and an Error for a
 * message it does not have.
 */
export async function writeForkLog(homeDir: string, from: SessionId, message: number): Promise<ForkedLog> {
  const { file, content } = await readSessionFile(homeDir, from);
  const lines = splitLog(content);
  const records: SessionRecord[] = [];
  for (const line of lines) {
    const parsed = parseLine(line.text);
    // A broken last line (a write cut short) is set aside when the session opens; it holds no message to fork from.
    if (!parsed.ok && line === lines.at(-1)) break;
    if (!parsed.ok) throw new SessionLoadError(`The session file ${file} is corrupt at line ${line.number}: ${parsed.reason}. It cannot be forked; open it to see what to do.`, { line: line.number });
    records.push(parsed.record);
  }
  const header = records[0];
  if (header?.type !== 'session' || header.id !== from) throw new SessionLoadError(`The session file ${file} does not start with its own header, so it cannot be forked.`, { line: 1 });

  const shown = shownMessagePositions(records);
  const position = shown[message];
  if (position === undefined) {
    const count = `${shown.length} message${shown.length === 1 ? '' : 's'}`;
    throw new Error(`This session shows ${count} of yours, so there is no message ${message + 1} to continue from. Reload the session and choose a message shown.`);
  }

  const id = newSessionId();
  const forkHeader = SessionRecordSchema.parse({
    type: 'session',
    version: SESSION_FORMAT_VERSION,
    id,
    projectDir: header.projectDir,
    createdAt: new Date().toISOString(),
    forkedFrom: { session: from, position },
  });
  // Every line before the message is whole (one follows it), so the bytes copied end with a newline.
  const body = content.subarray(lines[1]!.start, lines[position]!.start);
  await ensureMinoHome(homeDir);
  const target = sessionFile(homeDir, id);
  await publishNewPrivateFile(target, Buffer.concat([Buffer.from(`${JSON.stringify(forkHeader)}\n`, 'utf8'), body]));
  await syncDirectory(path.dirname(target));
  return { id, position, copied: records.slice(1, position) };
}
