// A fork's copy of the kept contents its inherited changes name. The kept
// contents are per session (preImageStore.ts) and a session's may be dropped
// on its own when the store is over its cap, so the fork keeps its own copy
// rather than reading the original's: undo in the fork never depends on the
// original still being kept.
import type { SessionRecord } from '../sessions/records';
import { keepContent, keptContentBytes } from './preImageStore';

/** The digests of the file contents the `change` records among `records` name, before and after. */
export function changeDigests(records: readonly SessionRecord[]): Set<string> {
  const digests = new Set<string>();
  for (const record of records) {
    if (record.type !== 'change') continue;
    for (const image of [record.before, record.after]) if (image.kind === 'file') digests.add(image.sha256);
  }
  return digests;
}

/**
 * Keeps for session `to` each content `from` kept that `records` name. One
 * `from` no longer has (dropped) is left out, so the fork reports it as the
 * original would: a change whose content was dropped and cannot be undone.
 * Returns how many were copied.
 */
export async function shareKeptContents(homeDir: string, from: string, to: string, records: readonly SessionRecord[]): Promise<number> {
  let copied = 0;
  for (const digest of changeDigests(records)) {
    const bytes = await keptContentBytes(homeDir, from, digest);
    if (bytes === null) continue;
    await keepContent(homeDir, to, bytes);
    copied += 1;
  }
  return copied;
}
