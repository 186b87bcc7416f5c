// make_directory: creates a directory and its missing parents inside the
// project. A file write in the decision (asked in manual mode, shown in the
// others, refused on protected paths), so a model needs no bash for a new
// folder. Inspection lists exactly the directories that will be made;
// execution rechecks that list before it makes any.
import { z } from 'zod';
import type { ToolResult } from '../../../shared/domain';
import { createDirectories, planDirectories, PLAN_CHANGED } from '../fs/makeDirectories';
import { fsFailureResult, guardProject, locationFields, projectPathArg, stoppedResult, validateFileArgs, withNote } from './fileToolSupport';
import type { Inspection, ProjectPath, Tool } from './types';
import { keepPreImage } from './writeStep';

export interface MakeDirectoryArgs {
  path: ProjectPath;
}

export interface MakeDirectoryState {
  /** The directories the person was shown, outermost first. */
  toCreate: ProjectPath[];
}

const argsSchema: z.ZodType<MakeDirectoryArgs> = z.strictObject({
  path: projectPathArg('Path of the directory to create, relative to the project directory, e.g. "src/utils".'),
});

export const MAKE_DIRECTORY_WARNING = 'Creates directories with your account permissions; approval applies only to the directories listed.';

export const makeDirectoryTool: Tool<MakeDirectoryArgs, MakeDirectoryState> = {
  name: 'make_directory',
  description:
    'Create a directory inside the project, with any missing parent directories (like mkdir -p). ' +
    'Fails if the directory already exists or a part of the path is a file; symbolic links are refused. ' +
    'Each call is shown to the user for approval.',
  kind: 'file_write',
  argsSchema,
  validate: (raw) => validateFileArgs(argsSchema, raw, { allowRoot: false }),
  target: (args) => ({ path: args.path, pathIs: 'directory' }),
  async inspect(args, ctx): Promise<Inspection<MakeDirectoryState>> {
    const refusal = guardProject(ctx);
    if (refusal) return { ok: false, result: refusal };
    const plan = planDirectories(ctx.projectDir, args.path);
    if (!plan.ok) return { ok: false, result: fsFailureResult(plan) };
    if (plan.toCreate.length === 0) {
      return {
        ok: false,
        result: { status: 'invalid_arguments', output: `${args.path} already exists as a directory; nothing needs creating. Use it as it is.` },
      };
    }
    return {
      ok: true,
      state: { toCreate: plan.toCreate },
      confirmation: {
        tool: 'make_directory',
        fields: [...locationFields(args.path, ctx), { label: 'Action', value: `Create ${directoryCount(plan.toCreate.length)}` }],
        preview: plan.toCreate.join('\n'),
        warning: MAKE_DIRECTORY_WARNING,
      },
    };
  },
  async execute(args, state, ctx): Promise<ToolResult> {
    if (ctx.signal?.aborted) return stoppedResult();
    const refusal = guardProject(ctx);
    if (refusal) return refusal;
    // What was approved is this exact list; anything else is a change after approval.
    const plan = planDirectories(ctx.projectDir, args.path);
    if (!plan.ok || plan.toCreate.join('\n') !== state.toCreate.join('\n')) return changedAfterApproval([]);
    for (const dir of state.toCreate) {
      const refused = await keepPreImage(ctx, dir, { kind: 'directory' });
      if (refused) return refused;
    }
    const made = await createDirectories(ctx.projectDir, state.toCreate);
    if (!made.ok) {
      if (made.kind === PLAN_CHANGED) return changedAfterApproval(made.created);
      return { status: 'failed', output: made.reason };
    }
    return { status: 'completed', output: withNote(`Created ${directoryCount(made.created.length)}: ${made.created.join(', ')}.`, made.note) };
  },
  denialMessage: 'The user did not approve creating this directory; nothing was created. Do not retry without a new user request.',
};

function directoryCount(n: number): string {
  return n === 1 ? '1 directory' : `${n} directories`;
}

function changedAfterApproval(created: readonly ProjectPath[]): ToolResult {
  const done = created.length === 0 ? 'nothing was created' : `only ${created.join(', ')} ${created.length === 1 ? 'was' : 'were'} created`;
  return { status: 'failed', output: `The path changed after approval; ${done}.` };
}
