// write_file: creates a new file or overwrites an existing one, as the model
// says; never "whichever applies". Inspection records what the person is
// shown (the create target's absence, or the digest of the file to replace);
// execution rechecks it and writes atomically.
import * as fs from 'node:fs';
import { z } from 'zod';
import type { Confirmation, ToolResult } from '../../../shared/domain';
import { withThousands } from '../../../shared/formatNumber';
import { createFileAtomically, planTemporaryFile, replaceFileAtomically, TARGET_APPEARED, type PlannedTemporaryFile } from '../fs/atomicWrite';
import { checkDirectoryChain } from '../fs/confinedOpen';
import { errorCode } from '../fs/fsResult';
import { resolveInProject } from '../fs/projectPath';
import { readProjectText, sha256Hex } from '../fs/readText';
import {
  CHANGED_AFTER_APPROVAL,
  fsFailureResult,
  guardProject,
  locationFields,
  projectPathArg,
  readOnlyRefusal,
  recheckContent,
  stoppedResult,
  validateFileArgs,
  WRITE_DENIAL_MESSAGE,
  WRITE_WARNING,
  WRITE_WARNING_WEIGHT,
  withNote,
} from './fileToolSupport';
import { describeSize, previewText } from './preview';
import { reviewedChange, watchedTarget } from './review';
import { lockedWrite } from './writeStep';
import type { Inspection, ProjectPath, Tool } from './types';

/**
 * The most a file tool writes (UTF-8 bytes): write_file's content, and the
 * file an edit_file call leaves. Well under the 1 MiB a tool call may carry
 * (agent/toolCall.ts). A file to replace or edit must also be readable, at
 * most 64 KiB (fs/readText.ts).
 */
export const MAX_WRITE_BYTES = 256 * 1024;

/** The refusal for text of `bytes` over MAX_WRITE_BYTES, null within it; `what` names the text ("The content"). */
export function tooLargeToWrite(what: string, bytes: number, recovery: string): ToolResult | null {
  if (bytes <= MAX_WRITE_BYTES) return null;
  return {
    status: 'invalid_arguments',
    output: `${what} is ${withThousands(bytes)} bytes; file tools write at most 256 KiB (${withThousands(MAX_WRITE_BYTES)} bytes). Nothing was written. ${recovery}`,
  };
}

export interface WriteFileArgs {
  path: ProjectPath;
  content: string;
  mode: 'create' | 'overwrite';
}

/**
 * What inspection saw, and what execution must find again; with `approved`,
 * the content the person approved after reviewing the change, written instead of the model's.
 */
export type WriteFileState = ({ mode: 'create' } | { mode: 'overwrite'; sha256: string; fileMode: number }) & {
  temp: PlannedTemporaryFile;
  approved?: { content: string; sha256: string };
};

const argsSchema: z.ZodType<WriteFileArgs> = z.strictObject({
  path: projectPathArg('Path of the file, relative to the project directory.'),
  content: z
    .string()
    .refine((s) => !s.includes('\0'), 'content contains a NUL byte; write_file writes text only')
    .describe('The complete new content of the file (UTF-8 text, at most 256 KiB).'),
  mode: z
    .enum(['create', 'overwrite'], { error: 'mode must be "create" (the file must not exist) or "overwrite" (it must exist)' })
    .describe('"create" for a new file in an existing directory; "overwrite" to replace an existing file.'),
});

const CONTENT_RECOVERY =
  'Split the content over several smaller files (modules, parts), or, for generated content, write a short bash command (a script) that produces it.';

export const writeFileTool: Tool<WriteFileArgs, WriteFileState> = {
  name: 'write_file',
  description:
    'Write a whole text file inside the project. mode "create" makes a new file (it must not exist; its directory must); ' +
    'mode "overwrite" replaces an existing file (of at most 64 KiB), keeping its permissions. Each call is shown to the user for approval. ' +
    'The content may be at most 256 KiB: split more into several files. For a small change to an existing file, prefer edit_file.',
  kind: 'file_write',
  argsSchema,
  validate: (raw) => validateFileArgs(argsSchema, raw, { allowRoot: false }),
  target: (args) => ({ path: args.path }),
  async inspect(args, ctx): Promise<Inspection<WriteFileState>> {
    const refusal = guardProject(ctx);
    if (refusal) return { ok: false, result: refusal };
    // Checked here rather than in the schema: a session loads only if every call it saved still validates,
    // and calls saved before this cap existed must go on loading.
    const tooLarge = tooLargeToWrite('The content', Buffer.byteLength(args.content, 'utf8'), CONTENT_RECOVERY);
    if (tooLarge) return { ok: false, result: tooLarge };
    const fields = locationFields(args.path, ctx);
    const confirmation = (action: string, diff?: string): Confirmation => ({
      tool: 'write_file',
      fields: [...fields, { label: 'Action', value: action }, { label: 'Resulting file', value: describeSize(args.content) }],
      preview: previewText(args.content),
      ...(diff === undefined ? {} : { diff }),
      warning: WRITE_WARNING,
      warningWeight: WRITE_WARNING_WEIGHT,
    });

    if (args.mode === 'create') {
      const taken = inspectCreateTarget(ctx.projectDir, args.path);
      if (taken) return { ok: false, result: taken };
      const planned = planTemporaryFile(ctx.projectDir, args.path);
      if (!planned.ok) return { ok: false, result: fsFailureResult(planned) };
      // The preview is the summary; the diff (every line added) is the whole content, with line numbers.
      const { diff, review } = reviewedChange(args.path, '', args.content);
      return {
        ok: true,
        state: { mode: 'create', temp: planned.temp },
        confirmation: confirmation('Create a new file', diff),
        ...(review ? { review } : {}),
        watch: watchedTarget(ctx.projectDir, args.path, () => !nameIsTaken(resolveInProject(ctx.projectDir, args.path))),
      };
    }

    const current = readProjectText(ctx.projectDir, args.path);
    if (!current.ok) {
      if (current.missingPath === args.path) {
        return invalid(`${args.path} does not exist, so it cannot be overwritten; use mode "create" to make a new file.`);
      }
      return { ok: false, result: fsFailureResult(current) };
    }
    const { file } = current;
    const readOnly = readOnlyRefusal(args.path, file.mode);
    if (readOnly) return { ok: false, result: readOnly };
    const { diff, review } = reviewedChange(args.path, file.text, args.content);
    const planned = planTemporaryFile(ctx.projectDir, args.path);
    if (!planned.ok) return { ok: false, result: fsFailureResult(planned) };
    const sha256 = sha256Hex(file.bytes);
    return {
      ok: true,
      state: { mode: 'overwrite', sha256, fileMode: file.mode, temp: planned.temp },
      confirmation: confirmation(`Overwrite the existing file (${file.size} bytes)`, diff),
      ...(review ? { review } : {}),
      watch: watchedTarget(ctx.projectDir, args.path, () => recheckContent(ctx.projectDir, args.path, sha256) === null),
    };
  },
  temporaryFiles: (state) => [state.temp],
  revise: (_args, state, approved) => ({ ...state, approved }),
  async execute(args, state, ctx): Promise<ToolResult> {
    if (ctx.signal?.aborted) return stoppedResult();
    const root = ctx.projectDir;
    const refusal = guardProject(ctx);
    if (refusal) return refusal;
    const content = state.approved?.content ?? args.content;
    const bound = state.approved ? { bound: state.approved.sha256 } : {};

    if (state.mode === 'create') {
      return lockedWrite(ctx, args.path, {
        // A name taken since inspection, even by a dangling link, is not what was approved.
        recheck: () => (nameIsTaken(resolveInProject(root, args.path)) ? changedAfterApproval() : null),
        after: { kind: 'file', content },
        ...bound,
        write: async () => {
          // The link refuses a name taken after the recheck too, by a writer that takes no lock.
          const created = await createFileAtomically(root, args.path, content, state.temp);
          if (!created.ok) return created.kind === TARGET_APPEARED ? changedAfterApproval() : { status: 'failed', output: created.reason };
          return { status: 'completed', output: withNote(`Created ${args.path} (${describeSize(content)}).`, created.note) };
        },
      });
    }

    const approvedSha = state.sha256;
    const fileMode = state.fileMode;
    const temp = state.temp;
    return lockedWrite(ctx, args.path, {
      recheck: () => recheckContent(root, args.path, approvedSha),
      after: { kind: 'file', content, mode: fileMode },
      ...bound,
      write: async () => {
        const replaced = await replaceFileAtomically(root, args.path, content, fileMode, temp);
        if (!replaced.ok) return { status: 'failed', output: replaced.reason };
        return { status: 'completed', output: withNote(`Overwrote ${args.path} (${describeSize(content)}).`, replaced.note) };
      },
    });
  },
  denialMessage: WRITE_DENIAL_MESSAGE,
};

/** Null when `p` may be created: its directories are real and present, and the name is free. */
function inspectCreateTarget(root: string, p: ProjectPath): ToolResult | null {
  const chain = checkDirectoryChain(root, p);
  if (!chain.ok) {
    if (chain.missingPath !== undefined) {
      return {
        status: 'invalid_arguments',
        output:
          `The directory ${chain.missingPath} does not exist; write_file creates a file only in an existing directory. ` +
          'Create the directory first, or choose a path in one that exists (list_dir shows them).',
      };
    }
    return fsFailureResult(chain);
  }
  try {
    fs.lstatSync(resolveInProject(root, p));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    return { status: 'failed', output: `could not check ${p} (${errorCode(error) ?? String(error)}).` };
  }
  return {
    status: 'invalid_arguments',
    output: `${p} already exists. Read it, then use edit_file for a change, or write_file with mode "overwrite" to replace it.`,
  };
}

function nameIsTaken(absPath: string): boolean {
  try {
    fs.lstatSync(absPath);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ENOENT';
  }
}

function changedAfterApproval(): ToolResult {
  return { status: 'failed', output: CHANGED_AFTER_APPROVAL };
}

function invalid(output: string): Inspection<WriteFileState> {
  return { ok: false, result: { status: 'invalid_arguments', output } };
}
