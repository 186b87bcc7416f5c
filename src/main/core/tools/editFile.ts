// edit_file: replaces one exact, unique fragment of a file. Inspection finds
// the fragment in the file as it is now and binds the approval to that
// content's digest; execution rechecks it and writes atomically.
import { z } from 'zod';
import type { ToolResult } from '../../../shared/domain';
import { planTemporaryFile, replaceFileAtomically, type PlannedTemporaryFile } from '../fs/atomicWrite';
import { readProjectText, sha256Hex } from '../fs/readText';
import {
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
import { tooLargeToWrite } from './writeFile';
import { reviewedChange, watchedTarget } from './review';
import { lockedWrite } from './writeStep';
import type { Inspection, ProjectPath, Tool } from './types';

export interface EditFileArgs {
  path: ProjectPath;
  old_string: string;
  new_string: string;
}

/** What inspection saw, and the content execution writes if the file is unchanged. */
export interface EditFileState {
  sha256: string;
  fileMode: number;
  line: number;
  newText: string;
  /** describeSize(newText), as the confirmation showed it and the result repeats it. */
  newSize: string;
  temp: PlannedTemporaryFile;
  /** The SHA-256 of newText when the person reviewed the change and approved their own version of it. */
  bound?: string;
}

const argsSchema: z.ZodType<EditFileArgs> = z
  .strictObject({
    path: projectPathArg('Path of the file, relative to the project directory.'),
    old_string: z
      .string()
      .min(1, 'old_string is empty; copy the exact text to replace from the file')
      .describe('The exact text to replace, copied from the file; it must occur exactly once.'),
    new_string: z
      .string()
      .refine((s) => !s.includes('\0'), 'new_string contains a NUL byte; edit_file writes text only')
      .describe('The text that replaces old_string.'),
  })
  .refine((args) => args.old_string !== args.new_string, {
    message: 'old_string and new_string are the same, so the edit would change nothing',
  });

export const editFileTool: Tool<EditFileArgs, EditFileState> = {
  name: 'edit_file',
  description:
    'Replace one exact fragment of a text file inside the project. old_string must be copied exactly from the file ' +
    '(read it first) and occur exactly once; include surrounding lines if needed to make it unique. ' +
    'The file may be at most 64 KiB, and at most 256 KiB after the edit. Each call is shown to the user for approval.',
  kind: 'file_write',
  argsSchema,
  validate: (raw) => validateFileArgs(argsSchema, raw, { allowRoot: false }),
  target: (args) => ({ path: args.path }),
  async inspect(args, ctx): Promise<Inspection<EditFileState>> {
    const refusal = guardProject(ctx);
    if (refusal) return { ok: false, result: refusal };
    const current = readProjectText(ctx.projectDir, args.path);
    if (!current.ok) {
      if (current.missingPath === args.path) {
        return invalid(`${args.path} does not exist; use write_file with mode "create" to make a new file.`);
      }
      return { ok: false, result: fsFailureResult(current) };
    }
    const { file } = current;
    const readOnly = readOnlyRefusal(args.path, file.mode);
    if (readOnly) return { ok: false, result: readOnly };
    const found = locateOnce(file.text, args.old_string);
    if (found.count === 0) {
      return invalid(
        `old_string was not found in ${args.path}. Read the file with read_file and copy the exact text to replace, ` +
          'including whitespace and line breaks.',
      );
    }
    if (found.count > 1) {
      return invalid(
        `old_string occurs ${found.count} times in ${args.path}; include enough surrounding text to make it occur exactly once.`,
      );
    }
    const index = found.index;
    const newText = file.text.slice(0, index) + args.new_string + file.text.slice(index + args.old_string.length);
    // Checked here, where the file is known, rather than in the schema, which every saved call must still pass.
    const tooLarge = tooLargeToWrite(
      `${args.path} after this edit`,
      Buffer.byteLength(newText, 'utf8'),
      'Insert less in one edit, or put the new part in a file of its own.',
    );
    if (tooLarge) return { ok: false, result: tooLarge };
    const line = lineAt(file.text, index);
    const newSize = describeSize(newText);
    const planned = planTemporaryFile(ctx.projectDir, args.path);
    if (!planned.ok) return { ok: false, result: fsFailureResult(planned) };
    const sha256 = sha256Hex(file.bytes);
    const { diff, review } = reviewedChange(args.path, file.text, newText);
    return {
      ok: true,
      state: { sha256, fileMode: file.mode, line, newText, newSize, temp: planned.temp },
      ...(review ? { review } : {}),
      watch: watchedTarget(ctx.projectDir, args.path, () => recheckContent(ctx.projectDir, args.path, sha256) === null),
      confirmation: {
        tool: 'edit_file',
        fields: [
          ...locationFields(args.path, ctx),
          { label: 'Starting line', value: String(line) },
          { label: 'Remove', value: previewText(args.old_string) },
          { label: 'Insert', value: previewText(args.new_string) },
          { label: 'Resulting file', value: newSize },
        ],
        diff,
        warning: WRITE_WARNING,
        warningWeight: WRITE_WARNING_WEIGHT,
      },
    };
  },
  temporaryFiles: (state) => [state.temp],
  revise: (_args, state, approved) => ({ ...state, newText: approved.content, newSize: describeSize(approved.content), bound: approved.sha256 }),
  async execute(args, state, ctx): Promise<ToolResult> {
    if (ctx.signal?.aborted) return stoppedResult();
    const refusal = guardProject(ctx);
    if (refusal) return refusal;
    return lockedWrite(ctx, args.path, {
      recheck: () => recheckContent(ctx.projectDir, args.path, state.sha256),
      after: { kind: 'file', content: state.newText, mode: state.fileMode },
      ...(state.bound !== undefined ? { bound: state.bound } : {}),
      write: async () => {
        const replaced = await replaceFileAtomically(ctx.projectDir, args.path, state.newText, state.fileMode, state.temp);
        if (!replaced.ok) return { status: 'failed', output: replaced.reason };
        return { status: 'completed', output: withNote(`Edited ${args.path} at line ${state.line} (${state.newSize}).`, replaced.note) };
      },
    });
  },
  denialMessage: WRITE_DENIAL_MESSAGE,
};

/**
 * Where `needle` occurs, counting overlapping occurrences too: in "aaa" the
 * fragment "aa" is ambiguous, so it counts twice.
 */
export function locateOnce(haystack: string, needle: string): { count: number; index: number } {
  const index = haystack.indexOf(needle);
  let count = 0;
  for (let i = index; i !== -1; i = haystack.indexOf(needle, i + 1)) count++;
  return { count, index };
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function invalid(output: string): Inspection<EditFileState> {
  return { ok: false, result: { status: 'invalid_arguments', output } };
}
