// The prompt cache key: the same for every request of one session (also after
// it is resumed), different between sessions, so a provider can reuse the
// cached prefix of a session's requests. Derived, not the id itself, so the
// service never learns the local session id.
import { createHash } from 'node:crypto';

export function promptCacheKey(sessionId: string): string {
  return `mino-${createHash('sha256').update(`mino-session:${sessionId}`).digest('hex').slice(0, 32)}`;
}
