// The write step every file-changing tool shares, in the order the design
// names it: lock -> recheck -> write -> unlock. The lock spans the recheck
// and the rename, so a second writer that was approved against the same
// content waits, then finds the file changed and writes nothing.
import type { ToolResult } from '../../../shared/domain';
import { lockFileForWrite } from '../locks/fileLock';
import { fsFailureResult } from './fileToolSupport';
import type { ProjectPath, ToolContext } from './types';

export interface WriteSteps {
  /** The refusal when the file is no longer what was approved; null when it still is. */
  recheck(): ToolResult | null;
  /** Publishes the new content; runs only after the recheck passed, still under the lock. */
  write(): Promise<ToolResult>;
}

export async function lockedWrite(ctx: ToolContext, p: ProjectPath, steps: WriteSteps): Promise<ToolResult> {
  const lock = await lockFileForWrite(ctx.homeDir, ctx.projectDir, p);
  if (!lock.ok) return fsFailureResult(lock);
  try {
    const changed = steps.recheck();
    if (changed) return changed;
    return await steps.write();
  } finally {
    lock.release();
  }
}
