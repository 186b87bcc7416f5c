// What the four file tools share: the path argument, pure validation, the
// ~/.mino guard, the mapping of filesystem refusals to results, and the
// confirmation wording.
import { z } from 'zod';
import type { ConfirmationField, ToolResult } from '../../../shared/domain';
import type { FsFailure } from '../fs/fsResult';
import { readProjectText, sha256Hex } from '../fs/readText';
import { projectGuardFacts, MINO_HOME_OVERLAP_MESSAGE } from '../fs/projectGuard';
import { normalizeProjectPath, PROJECT_ROOT } from '../fs/projectPath';
import type { ProjectPath, ToolContext, Validation } from './types';
import { issuesText } from '../../../shared/zodIssues';

export const WRITE_WARNING = 'Writes with your account permissions; approval applies only to this change to the current file.';
/** A change to one file inside the project, shown whole before it is made: a routine ask, not an alarm. */
export const WRITE_WARNING_WEIGHT = 'neutral';
export const WRITE_DENIAL_MESSAGE =
  'The user did not approve this change; the file was not modified. Do not retry without a new user request.';
export const CHANGED_AFTER_APPROVAL = 'File changed after approval; nothing was written.';

/**
 * The path argument. It is a plain string to the model and to zod; only
 * `validateFileArgs` (through normalizeProjectPath) turns it into the
 * canonical ProjectPath the type promises, so callers use `validate`, not a
 * bare parse of the schema.
 */
export function projectPathArg(description: string): z.ZodType<ProjectPath> {
  return z.string().describe(description) as unknown as z.ZodType<ProjectPath>;
}

/**
 * Parses the arguments, then normalizes `path`. Pure. `allowRoot` is for
 * list_dir, the only tool whose target may be the project directory itself.
 */
export function validateFileArgs<Args extends { path: ProjectPath }>(
  schema: z.ZodType<Args>,
  raw: unknown,
  options: { allowRoot: boolean },
): Validation<Args> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: issuesText(parsed.error) };
  const normalized = normalizeProjectPath(parsed.data.path);
  if (!normalized.ok) return normalized;
  if (!options.allowRoot && normalized.path === PROJECT_ROOT) {
    return { ok: false, reason: 'the path names the project directory itself; give the path of a file inside it' };
  }
  return { ok: true, args: { ...parsed.data, path: normalized.path } };
}

/**
 * The ~/.mino guard for one call: the error result that turns the file tools
 * off, or null when they may work. Every file tool runs it first, on every
 * call, before it touches anything under the project.
 */
export function guardProject(ctx: ToolContext): ToolResult | null {
  const check = projectGuardFacts(ctx.projectDir, ctx.homeDir);
  if (check.overlapsMinoHome) {
    return { status: 'error', output: `${MINO_HOME_OVERLAP_MESSAGE} Tell the user; do not retry with file tools.` };
  }
  // Confinement compares kernel-reported locations with paths under
  // projectDir, so a project named through a link would fail every call
  // obscurely; say so once, plainly.
  if (check.realProjectDir !== ctx.projectDir) {
    return {
      status: 'failed',
      output: `The project directory ${ctx.projectDir} is not a resolved path (it leads to ${check.realProjectDir}); nothing was read or written.`,
    };
  }
  return null;
}

/** A refusal is the model's to fix (invalid_arguments); anything else failed. */
export function fsFailureResult(failure: FsFailure): ToolResult {
  return { status: failure.kind === 'refused' ? 'invalid_arguments' : 'failed', output: failure.reason };
}

/** The first two fields of every file tool's confirmation, as the book orders them. */
export function locationFields(p: ProjectPath, ctx: ToolContext): ConfirmationField[] {
  return [
    { label: 'Path', value: p },
    { label: 'Project directory', value: ctx.projectDir },
  ];
}

/**
 * The recheck of an overwrite or edit: null when `p` still holds exactly the
 * content the approval was bound to (and may still be written), else the
 * result that nothing was written.
 */
export function recheckContent(root: string, p: ProjectPath, approvedSha256: string): ToolResult | null {
  const current = readProjectText(root, p);
  if (!current.ok || sha256Hex(current.file.bytes) !== approvedSha256) return { status: 'failed', output: CHANGED_AFTER_APPROVAL };
  return readOnlyRefusal(p, current.file.mode);
}

/**
 * A file its owner may not write is not replaced: the rename that publishes
 * new content needs only the directory, so without this check a read-only
 * file would change without a word.
 */
export function readOnlyRefusal(p: ProjectPath, mode: number): ToolResult | null {
  if ((mode & 0o200) !== 0) return null;
  return {
    status: 'invalid_arguments',
    output: `${p} is read-only (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); Mino does not replace a file its owner may not write. Ask the user to make it writable if it should change.`,
  };
}

export function stoppedResult(): ToolResult {
  return { status: 'failed', output: 'The turn was stopped before the change was written; nothing was written.' };
}


/** A completed write's result text, with the note of anything that went wrong after the content was in place. */
export function withNote(output: string, note: string | undefined): string {
  return note ? `${output} ${note}` : output;
}
