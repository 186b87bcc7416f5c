// read_file: a restricted read. Confined in code, so it needs no approval;
// the reading happens in execute.
import { z } from 'zod';
import { readProjectText } from '../fs/readText';
import { fsFailureResult, guardProject, locationFields, projectPathArg, validateFileArgs } from './fileToolSupport';
import type { ProjectPath, Tool } from './types';

export interface ReadFileArgs {
  path: ProjectPath;
}

const argsSchema: z.ZodType<ReadFileArgs> = z.strictObject({
  path: projectPathArg('Path of the file, relative to the project directory, e.g. "src/main.go".'),
});

export const readFileTool: Tool<ReadFileArgs, null> = {
  name: 'read_file',
  description:
    'Read a UTF-8 text file (at most 64 KiB) inside the project and return its text. ' +
    'Paths are relative to the project directory; symbolic links, binary files and special files are refused.',
  kind: 'restricted_read',
  argsSchema,
  validate: (raw) => validateFileArgs(argsSchema, raw, { allowRoot: false }),
  // A read's target is a file: a plain file named .git is not the .git/ directory.
  target: (args) => ({ path: args.path, pathIs: 'file' }),
  // Nothing to inspect: a restricted read is not asked about, and execute
  // applies the ~/.mino guard before it reads anything.
  async inspect(args, ctx) {
    return { ok: true, state: null, confirmation: { tool: 'read_file', fields: locationFields(args.path, ctx) } };
  },
  async execute(args, _state, ctx) {
    const refusal = guardProject(ctx);
    if (refusal) return refusal;
    const read = readProjectText(ctx.projectDir, args.path);
    if (!read.ok) return fsFailureResult(read);
    // An empty string would read as a missing result; say it plainly instead.
    const output = read.file.size === 0 ? `${args.path} is empty (0 bytes).` : read.file.text;
    return { status: 'completed', output };
  },
  denialMessage: 'The user did not approve reading this file; nothing was read. Do not retry without a new user request.',
};
