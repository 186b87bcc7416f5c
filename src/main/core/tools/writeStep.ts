// The write step every file-changing tool shares, in the order the design
// names it: lock -> recheck -> keep pre-image -> write -> unlock. The lock spans the recheck
// and the rename, so a second writer that was approved against the same
// content waits, then finds the file changed and writes nothing.
import type { ToolResult } from '../../../shared/domain';
import { sha256Hex } from '../fs/readText';
import { lockFileForWrite } from '../locks/fileLock';
import { fsFailureResult } from './fileToolSupport';
import type { ProjectPath, ToolContext, WriteOutcome } from './types';

export interface WriteSteps {
  /** The refusal when the file is no longer what was approved; null when it still is. */
  recheck(): ToolResult | null;
  /** Publishes the new content; runs only after the recheck passed, still under the lock. */
  write(): Promise<ToolResult>;
  /** What `write` will leave at the path, kept with the pre-image for undo. */
  after: WriteOutcome;
  /**
   * The SHA-256 of the content the person approved after reviewing it (main
   * computed it from their answer): nothing else is written under that approval.
   */
  bound?: string;
}

export const NOT_WHAT_WAS_APPROVED = 'The content to write is not the content the user approved, so nothing was written. Tell the user.';

export async function lockedWrite(ctx: ToolContext, p: ProjectPath, steps: WriteSteps): Promise<ToolResult> {
  const lock = await lockFileForWrite(ctx.homeDir, ctx.projectDir, p);
  if (!lock.ok) return fsFailureResult(lock);
  try {
    const changed = steps.recheck();
    if (changed) return changed;
    if (steps.bound !== undefined && (steps.after.kind !== 'file' || sha256Hex(steps.after.content) !== steps.bound)) {
      return { status: 'failed', output: NOT_WHAT_WAS_APPROVED };
    }
    const kept = await keepPreImage(ctx, p, steps.after);
    if (kept) return kept;
    return await steps.write();
  } finally {
    lock.release();
  }
}

/** Keeps the pre-image through the context's port; the refusal when it cannot, so nothing is written that could not be undone. */
export async function keepPreImage(ctx: ToolContext, p: ProjectPath, after: WriteOutcome): Promise<ToolResult | null> {
  if (!ctx.keepPreImage) return null;
  const kept = await ctx.keepPreImage(p, after);
  if (kept.ok) return null;
  return {
    status: 'failed',
    output: `Mino could not keep a copy of ${p} as it was before this change (${kept.reason}), so nothing was written. Tell the user.`,
  };
}
