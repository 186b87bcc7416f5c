// list_dir: a restricted read of one directory's entries, directories first,
// each marked dir, file, link or other, capped so a huge directory cannot
// flood the context.
import { z } from 'zod';
import { displayName, listProjectDirectory, type DirectoryEntry } from '../fs/listDirectory';
import { fsFailureResult, guardProject, locationFields, projectPathArg, validateFileArgs } from './fileToolSupport';
import type { ProjectPath, Tool } from './types';

export const LIST_DIR_MAX_ENTRIES = 200;

export interface ListDirArgs {
  path: ProjectPath;
}

const argsSchema: z.ZodType<ListDirArgs> = z.strictObject({
  path: projectPathArg('Path of the directory, relative to the project directory; "." for the project directory itself.'),
});

export const listDirTool: Tool<ListDirArgs, null> = {
  name: 'list_dir',
  description:
    'List the entries of a directory inside the project, directories first, each marked dir, file, link or other. ' +
    `Shows at most ${LIST_DIR_MAX_ENTRIES} entries. Use "." for the project directory.`,
  kind: 'restricted_read',
  argsSchema,
  validate: (raw) => validateFileArgs(argsSchema, raw, { allowRoot: true }),
  target: (args) => ({ path: args.path }),
  // Nothing to inspect: a restricted read is not asked about, and execute
  // applies the ~/.mino guard before it reads anything.
  async inspect(args, ctx) {
    return { ok: true, state: null, confirmation: { tool: 'list_dir', fields: locationFields(args.path, ctx) } };
  },
  async execute(args, _state, ctx) {
    const refusal = guardProject(ctx);
    if (refusal) return refusal;
    const listed = await listProjectDirectory(ctx.projectDir, args.path);
    if (!listed.ok) return fsFailureResult(listed);
    return { status: 'completed', output: formatListing(args.path, listed.entries) };
  },
  denialMessage: 'The user did not approve listing this directory; nothing was read. Do not retry without a new user request.',
};

/** One entry a line, "dir   src"; names with control characters are JSON-quoted so they cannot forge lines. */
export function formatListing(p: ProjectPath, entries: DirectoryEntry[]): string {
  if (entries.length === 0) return `${p} is an empty directory.`;
  const lines = entries.slice(0, LIST_DIR_MAX_ENTRIES).map((entry) => `${entry.kind.padEnd(5)} ${displayName(entry.name)}`);
  const hidden = entries.length - LIST_DIR_MAX_ENTRIES;
  if (hidden > 0) lines.push(`... ${hidden} more ${hidden === 1 ? 'entry' : 'entries'} not shown (${entries.length} in total).`);
  return lines.join('\n');
}
