// Saving what a sandboxed command changed as the changes of its call: each
// content kept in ~/.mino/checkpoints, one `change` record per path (so the
// turn's Changes, undo and redo treat it as they treat an edit), then one
// `capture` record saying whether that is all of it. And the line its result
// ends with, so the model and the person see what was captured, and what not.
import { randomUUID } from 'node:crypto';
import { errorCode } from '../fs/fsResult';
import type { ChangeImage } from '../sessions/records';
import type { SessionLog } from '../sessions/sessionLog';
import type { RecordCommand, SeenChange, SeenImage } from '../tools/types';
import { inParallel } from '../sandbox/inParallel';
import { keepContent } from './preImageStore';
import type { PreImageOptions } from './keepPreImages';

/** More changed paths than this and a command's changes are not captured: each is a record saved to disk before the result. */
export const MAX_CAPTURED_CHANGES = 2_000;

/** Paths named in a result line before "and N more". */
const NAMED = 5;

/** The session logs (as opened by this process) that hold a capture record: see turnChanges.ts's UntrackedCalls. */
const marked = new WeakSet<SessionLog>();

/** The port that saves call `callId`'s captured changes; `afterKept` prunes the store once they are in. */
export function commandRecorder(options: PreImageOptions, callId: string, afterKept: () => Promise<void>): RecordCommand {
  return async (capture) => {
    const log = options.log;
    if (!capture.captured) {
      await log.append({ type: 'capture', call_id: callId, outcome: 'not_captured', reason: capture.reason });
      marked.add(log);
      return notCapturedLine(capture.reason);
    }
    if (capture.changes.length > MAX_CAPTURED_CHANGES) {
      const reason = `it changed ${capture.changes.length.toLocaleString('en-US')} paths, more than the ${MAX_CAPTURED_CHANGES.toLocaleString('en-US')} Mino captures for one command`;
      await log.append({ type: 'capture', call_id: callId, outcome: 'not_captured', reason, ignored: capture.ignored.length });
      marked.add(log);
      return notCapturedLine(reason);
    }
    const missed = [...capture.missed];
    let saved = 0;
    try {
      // The contents first, several at a time (each is flushed to disk, and flushes in flight together cost little more than one).
      const digests = await keepAll(options, capture.changes);
      for (const change of capture.changes) {
        const before = imageOf(change.before, digests);
        const after = imageOf(change.after, digests);
        await log.append({ type: 'change', change_id: randomUUID(), call_id: callId, path: change.path, before, after });
        saved += 1;
      }
    } catch (error) {
      missed.push(`${capture.changes.length - saved} of its changes: they could not be saved to ~/.mino/checkpoints (${errorCode(error) ?? String(error)})`);
    }
    const outcome = missed.length === 0 ? 'captured' : saved === 0 && capture.changes.length > 0 ? 'not_captured' : 'partial';
    // A complete capture is recorded once per opening of the log: later commands without a record of their own
    // were captured whole (turnChanges.ts), which spares each a flush of the log to disk.
    if (outcome !== 'captured' || !marked.has(log)) {
      await log.append({
        type: 'capture',
        call_id: callId,
        outcome,
        ...(missed.length > 0 ? { reason: missed.join('; ') } : {}),
        ...(capture.ignored.length > 0 ? { ignored: capture.ignored.length } : {}),
      });
      marked.add(log);
    }
    if (saved > 0) await afterKept();
    return capturedLines(capture.changes.slice(0, saved), missed, capture.ignored);
  };
}

/** How many contents are written to ~/.mino/checkpoints at once. */
const PARALLEL_KEEPS = 8;

/** Keeps every file content the changes name; returns each content's digest. */
async function keepAll(options: PreImageOptions, changes: readonly SeenChange[]): Promise<Map<Buffer, string>> {
  const contents = [...new Set(changes.flatMap((c) => [c.before, c.after]).flatMap((image) => (image.kind === 'file' ? [image.content] : [])))];
  const digests = new Map<Buffer, string>();
  await inParallel(contents, async (content) => {
    digests.set(content, await keepContent(options.homeDir, options.log.id, content));
  }, PARALLEL_KEEPS);
  return digests;
}

function imageOf(image: SeenImage, digests: ReadonlyMap<Buffer, string>): ChangeImage {
  switch (image.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'directory':
      return { kind: 'directory', mode: image.mode };
    case 'symlink':
      return { kind: 'symlink', target: image.target };
    case 'file': {
      const sha256 = digests.get(image.content)!;
      return isBinary(image.content) ? { kind: 'file', sha256, mode: image.mode, binary: true } : { kind: 'file', sha256, mode: image.mode };
    }
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Content shown as "binary" rather than as a diff: a NUL byte, or bytes that are not UTF-8 (as the file tools judge text). */
export function isBinary(content: Buffer): boolean {
  if (content.includes(0)) return true;
  try {
    UTF8.decode(content);
    return false;
  } catch {
    // ignore: not UTF-8 is exactly what makes it binary
    return true;
  }
}

export function notCapturedLine(reason: string): string {
  return `[Changes: not captured, so what this command changed cannot be reviewed or undone in Mino: ${reason}.]`;
}

/** The result's line for a captured command; '' when it changed nothing at all. */
function capturedLines(changes: readonly SeenChange[], missed: readonly string[], ignored: readonly string[]): string {
  const lines: string[] = [];
  if (changes.length > 0) lines.push(`[Changes: captured for review and undo: ${named(changes.map(describe))}.]`);
  if (missed.length > 0) lines.push(`[Changes: not captured (cannot be undone in Mino): ${named(missed)}.]`);
  if (ignored.length > 0) {
    lines.push(`[Changes: ${ignored.length === 1 ? '1 path' : `${ignored.length} paths`} that .gitignore ignores changed and ${ignored.length === 1 ? 'is' : 'are'} not captured: ${named(ignored)}.]`);
  }
  return lines.join('\n');
}

function describe(change: SeenChange): string {
  const { before, after } = change;
  const what =
    before.kind === 'absent' ? 'created' : after.kind === 'absent' ? 'deleted' : before.kind === after.kind && sameBytes(before, after) ? 'permissions changed' : 'changed';
  return `${change.path}${after.kind === 'directory' || (after.kind === 'absent' && before.kind === 'directory') ? '/' : ''} (${what})`;
}

function sameBytes(before: SeenImage, after: SeenImage): boolean {
  if (before.kind === 'file' && after.kind === 'file') return before.content.equals(after.content);
  return before.kind === 'directory' && after.kind === 'directory';
}

function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED).join(', ');
  return items.length > NAMED ? `${shown} and ${items.length - NAMED} more` : shown;
}
