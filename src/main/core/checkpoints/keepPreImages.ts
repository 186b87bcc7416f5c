// The pre-image port of one session's calls: before a file tool's write, keep
// what the path holds and what the write will leave, and save a `change`
// record naming both, so the turn can be reviewed and undone later; after a
// sandboxed command, the same for each change its capture saw (recordCommand.ts).
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { errorCode } from '../fs/fsResult';
import { resolveInProject, type ProjectPath } from '../fs/projectPath';
import { readProjectText } from '../fs/readText';
import type { ChangeImage } from '../sessions/records';
import type { SessionLog } from '../sessions/sessionLog';
import type { KeepPreImage, WriteOutcome } from '../tools/types';
import { keepContent, pruneCheckpoints } from './preImageStore';
import { commandRecorder } from './recordCommand';
import { errorText, log } from '../log/log';

export const DEFAULT_CHECKPOINT_CAP_MB = 500;

export interface PreImageOptions {
  homeDir: string;
  projectDir: string;
  log: SessionLog;
  /** The size cap across sessions, in bytes, read when content is kept. */
  capBytes: () => Promise<number>;
  /** Told when older sessions' pre-images were dropped to stay under the cap. */
  onDropped?: (sessionIds: string[]) => void;
}

/** The port for one call: every change it makes is recorded under its call id (a bash command's through `recordCommand`). */
export function preImageKeeper(options: PreImageOptions): (callId: string) => KeepPreImage {
  return (callId) => {
    const keep: KeepPreImage = async (p, after) => keepOne(options, callId, p, after);
    keep.recordCommand = commandRecorder(options, callId, () => prune(options));
    return keep;
  };
}

/** A file tool's write: keeps what `p` holds now and what the write will leave, and saves the change record. */
async function keepOne(options: PreImageOptions, callId: string, p: ProjectPath, after: WriteOutcome): Promise<{ ok: true } | { ok: false; reason: string }> {
  const before = await currentImage(options, p);
  if (!before.ok) return before;
  let afterImage: ChangeImage;
  try {
    afterImage = await imageOf(options, after);
  } catch (error) {
    return { ok: false, reason: `could not save to ~/.mino/checkpoints: ${errorCode(error) ?? String(error)}` };
  }
  await options.log.append({ type: 'change', change_id: randomUUID(), call_id: callId, path: p, before: before.image, after: afterImage });
  await prune(options);
  return { ok: true };
}

async function currentImage(options: PreImageOptions, p: ProjectPath): Promise<{ ok: true; image: ChangeImage } | { ok: false; reason: string }> {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(resolveInProject(options.projectDir, p));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { ok: true, image: { kind: 'absent' } };
    return { ok: false, reason: `could not check it (${errorCode(error) ?? String(error)})` };
  }
  if (stat.isDirectory()) return { ok: true, image: { kind: 'directory' } };
  // The write was approved against this file and rechecked under the lock, so it reads as it did then.
  const read = readProjectText(options.projectDir, p);
  if (!read.ok) return { ok: false, reason: read.reason };
  try {
    const sha256 = await keepContent(options.homeDir, options.log.id, read.file.text);
    return { ok: true, image: { kind: 'file', sha256, mode: read.file.mode } };
  } catch (error) {
    return { ok: false, reason: `could not save to ~/.mino/checkpoints: ${errorCode(error) ?? String(error)}` };
  }
}

async function imageOf(options: PreImageOptions, after: WriteOutcome): Promise<ChangeImage> {
  if (after.kind === 'directory') return { kind: 'directory' };
  const sha256 = await keepContent(options.homeDir, options.log.id, after.content);
  // A created file's permission bits are the umask's; redoing a create makes them the same way.
  return after.mode === undefined ? { kind: 'file', sha256 } : { kind: 'file', sha256, mode: after.mode };
}

async function prune(options: PreImageOptions): Promise<void> {
  try {
    const dropped = await pruneCheckpoints(options.homeDir, await options.capBytes(), options.log.id);
    if (dropped.length > 0) options.onDropped?.(dropped);
  } catch (error) {
    // The change is kept and recorded; a failed clean-up only leaves more on disk, and the next write tries again.
    log.warn('checkpoints.prune_failed', { session: options.log.id, error: errorText(error) });
  }
}
