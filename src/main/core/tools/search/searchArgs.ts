// What search_files and find_files share: the arguments that say where to
// look, their validation (pure), the tools' confirmation fields and the run
// of a job in the worker.
import { z } from 'zod';
import type { ConfirmationField, ToolResult } from '../../../../shared/domain';
import { issueLines } from '../../../../shared/zodIssues';
import { normalizeProjectPath } from '../../fs/projectPath';
import { guardProject } from '../fileToolSupport';
import type { ProjectPath, ToolContext, Validation } from '../types';
import { runSearchWorker } from './runSearchWorker';
import { DEFAULT_MAX_RESULTS, MAX_RESULTS, type Job } from './searchJob';

export const pathArg = z
  .string()
  .optional()
  .describe('A folder or file of the project to search, relative to the project directory; leave out for the whole project.');

export const maxResultsArg = z
  .number()
  .int()
  .min(1)
  .max(MAX_RESULTS)
  .optional()
  .describe(`At most this many results (default ${DEFAULT_MAX_RESULTS}, at most ${MAX_RESULTS}).`);

export const includeIgnoredArg = z
  .boolean()
  .optional()
  .describe('true: also look through what .gitignore files ignore (node_modules, build output, ...). Default false.');

/** The fields every search call has once validated: `path` normalized ('.' for the whole project). */
export interface ScopeArgs {
  path?: ProjectPath;
  max_results?: number;
  include_ignored?: boolean;
}

/**
 * Parses `raw`, then checks the path and glob. `example` is a valid call, for
 * the message: the model learns from it how to send the arguments again.
 */
export function validateSearchArgs<Args extends ScopeArgs>(
  toolName: string,
  schema: z.ZodType<Args>,
  raw: unknown,
  example: string,
  options: { globField: 'glob' | 'pattern' } = { globField: 'glob' },
): Validation<Args> {
  const invalid = (problem: string): Validation<Args> => ({ ok: false, reason: `Invalid ${toolName} arguments (${problem}). Send for example ${example}.` });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return invalid(issueLines(parsed.error).join('; '));
  const glob = (parsed.data as Record<string, unknown>)[options.globField];
  const problem = typeof glob === 'string' ? globProblem(options.globField, glob) : null;
  if (problem !== null) return invalid(problem);
  const normalized = normalizeProjectPath(parsed.data.path ?? '.');
  if (!normalized.ok) return { ok: false, reason: `Invalid ${toolName} arguments (path: ${normalized.reason}).` };
  return { ok: true, args: { ...parsed.data, path: normalized.path } };
}

function globProblem(field: string, glob: string): string | null {
  if (glob.trim() === '') return `${field}: the glob is empty`;
  if (glob.startsWith('/') || glob.split('/').includes('..')) {
    return `${field}: ${JSON.stringify(glob)} is matched against paths relative to "path", so it cannot start with "/" or contain ".."; give the folder as "path" instead`;
  }
  return null;
}

/** The confirmation fields of a search call: where, and what. */
export function searchFields(args: ScopeArgs, ctx: ToolContext, what: ConfirmationField[]): ConfirmationField[] {
  return [
    { label: 'Path', value: args.path ?? '.' },
    { label: 'Project directory', value: ctx.projectDir },
    ...what,
    ...(args.include_ignored ? [{ label: 'Include ignored', value: 'yes' }] : []),
  ];
}

/** Runs a validated job: the ~/.mino guard first, as every file tool does, then the worker. */
export async function runSearch(job: Job, ctx: ToolContext, tickMs: number | undefined): Promise<ToolResult> {
  const refusal = guardProject(ctx);
  if (refusal) return refusal;
  return runSearchWorker({ ...job, protectGlobs: ctx.protectGlobs ?? [] }, { signal: ctx.signal, tickMs });
}
