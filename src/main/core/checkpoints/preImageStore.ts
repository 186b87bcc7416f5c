// Where the contents of changed files are kept so a turn can be undone:
// ~/.mino/checkpoints/<session id>/<sha256>, one file per distinct content
// (0600, in 0700 directories), never inside the project or its git
// repository. Bounded: over the size cap, whole sessions are dropped, oldest
// first, never the one being written. Counting the sizes is also when the
// temporary files of writes cut short by a kill are removed (they would
// otherwise count against the cap for ever); one being written now is
// neither removed nor counted.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorCode } from '../../../shared/errors';
import { ensurePrivateDir, isOrphanedTemp, isPrivateTempName, minoPaths, writePrivateFile } from '../config/minoHome';
import { sha256Hex } from '../fs/readText';
import { keptImageFiles } from '../images/imageStore';
import { errorText, log } from '../log/log';

export const CHECKPOINTS_DIR_NAME = 'checkpoints';
const DIGEST = /^[0-9a-f]{64}$/;
const SESSION_ID = /^[0-9a-f]{32}$/;
/** Decodes kept text exactly: a byte-order mark is kept, and bytes that are not UTF-8 are refused rather than replaced. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function checkpointsDir(homeDir: string): string {
  return path.join(minoPaths(homeDir).root, CHECKPOINTS_DIR_NAME);
}

function sessionDir(homeDir: string, sessionId: string): string {
  if (!SESSION_ID.test(sessionId)) throw new Error(`not a session id: ${sessionId}`);
  return path.join(checkpointsDir(homeDir), sessionId);
}

/**
 * Keeps `content` (text, or the bytes of any file a command changed) for
 * `sessionId`; returns its digest, which is of its bytes (text: its UTF-8).
 * Content already kept is not written again.
 */
export async function keepContent(homeDir: string, sessionId: string, content: string | Buffer): Promise<string> {
  const digest = sha256Hex(content);
  const dir = sessionDir(homeDir, sessionId);
  const file = path.join(dir, digest);
  try {
    await fs.access(file);
    return digest;
  } catch {
    // ignore: not kept yet (or not visible): the write below keeps it, or fails with its own reason
  }
  await ensurePrivateDir(checkpointsDir(homeDir));
  await ensurePrivateDir(dir);
  if (typeof content === 'string') await writePrivateFile(file, content);
  else await writePrivateFile(file, content);
  return digest;
}

/** The kept content with this digest as text, or null when it was dropped (or never kept) or no longer matches its name. */
export async function keptContent(homeDir: string, sessionId: string, digest: string): Promise<string | null> {
  const bytes = await keptContentBytes(homeDir, sessionId, digest);
  if (bytes === null) return null;
  try {
    return UTF8.decode(bytes);
  } catch {
    // ignore: bytes that are not UTF-8 would not survive as text; such content is binary, read with keptContentBytes
    return null;
  }
}

/** The kept content with this digest as bytes, or null when it was dropped (or never kept) or no longer matches its name. */
export async function keptContentBytes(homeDir: string, sessionId: string, digest: string): Promise<Buffer | null> {
  if (!DIGEST.test(digest)) return null;
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path.join(sessionDir(homeDir, sessionId), digest));
  } catch {
    return null;
  }
  // A damaged copy must never be written back as if it were the file.
  return sha256Hex(bytes) === digest ? bytes : null;
}

interface SessionUsage {
  sessionId: string;
  bytes: number;
  /** When content was last added (the directory's modification time). */
  lastWrite: number;
}

async function usage(homeDir: string): Promise<SessionUsage[]> {
  let names: string[];
  try {
    names = await fs.readdir(checkpointsDir(homeDir));
  } catch {
    return [];
  }
  const sessions: SessionUsage[] = [];
  const now = Date.now();
  for (const name of names.filter((n) => SESSION_ID.test(n))) {
    const dir = path.join(checkpointsDir(homeDir), name);
    try {
      const stat = await fs.stat(dir);
      let bytes = 0;
      let removed = false;
      for (const file of await fs.readdir(dir)) {
        const fileStat = await fs.lstat(path.join(dir, file));
        if (isPrivateTempName(file)) {
          if (isOrphanedTemp(file, { mtimeMs: fileStat.mtimeMs, now })) {
            await fs.rm(path.join(dir, file), { force: true });
            removed = true;
          }
          continue;
        }
        bytes += fileStat.size;
      }
      // The directory's time says when content was last kept (the order sessions are dropped in), not when debris went.
      if (removed) await fs.utimes(dir, stat.atimeMs / 1000, stat.mtimeMs / 1000);
      sessions.push({ sessionId: name, bytes, lastWrite: stat.mtimeMs });
    } catch (error) {
      // ignore: a session removed meanwhile (another process pruned it) has nothing to count
      if (errorCode(error) !== 'ENOENT') log.warn('checkpoints.usage_unreadable', { dir, error: errorText(error) });
    }
  }
  return sessions;
}

/** Total bytes kept across sessions. */
export async function keptBytes(homeDir: string): Promise<number> {
  return (await usage(homeDir)).reduce((sum, s) => sum + s.bytes, 0);
}

/**
 * Drops what is kept, oldest first, until the total is at most `capBytes`:
 * whole sessions' contents (by when content was last kept for them) and the
 * images attached to messages (~/.mino/images, by when each was last
 * attached), interleaved by age, so neither kind can crowd out the other's
 * recent part. `keep` (the session writing now) is never dropped. A dropped
 * image's messages still load; the model is told it is no longer kept.
 * Returns the sessions dropped.
 */
export async function pruneCheckpoints(homeDir: string, capBytes: number, keep: string): Promise<string[]> {
  const sessions = await usage(homeDir);
  const images = await keptImageFiles(homeDir);
  const kept = [
    ...sessions.map((session) => ({ session: session.sessionId, path: path.join(checkpointsDir(homeDir), session.sessionId), bytes: session.bytes, lastWrite: session.lastWrite })),
    ...images.map((image) => ({ session: null, path: image.file, bytes: image.bytes, lastWrite: image.lastWrite })),
  ];
  let total = kept.reduce((sum, entry) => sum + entry.bytes, 0);
  const dropped: string[] = [];
  let imagesDropped = 0;
  for (const entry of kept.sort((a, b) => a.lastWrite - b.lastWrite)) {
    if (total <= capBytes) break;
    if (entry.session === keep) continue;
    await fs.rm(entry.path, { recursive: true, force: true });
    total -= entry.bytes;
    if (entry.session === null) imagesDropped += 1;
    else dropped.push(entry.session);
  }
  if (imagesDropped > 0) log.info('images.pruned', { count: imagesDropped });
  return dropped;
}
