import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { SESSION_ID_RULE, SessionIdSchema } from '../../../shared/domain';
import { minoPaths } from '../config/minoHome';

/** 16 bytes from the system's secure random source, in lowercase hex (SESSION_ID_RULE). */
export function newSessionId(): string {
  return randomBytes(16).toString('hex');
}

export function isSessionId(id: string): boolean {
  return SessionIdSchema.safeParse(id).success;
}

/** ~/.mino/sessions/<id>.jsonl. The id is checked first, so no caller can reach outside the sessions folder. */
export function sessionFile(homeDir: string, id: string): string {
  if (!isSessionId(id)) throw new Error(`"${id}" is not a session id (${SESSION_ID_RULE}).`);
  return path.join(minoPaths(homeDir).sessions, `${id}.jsonl`);
}
