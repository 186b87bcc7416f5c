// The project's files as the window's file list and @mention suggestions see
// them: read-only, bounded, each entry marked with the protected rule that
// covers it. Display only; nothing here decides what a tool may do.
import { z } from 'zod';

export const FILE_KINDS = ['dir', 'file', 'link', 'other'] as const;

export const ProjectFileSchema = z.object({
  /** Project-relative, canonical ("src/app.ts"). */
  path: z.string(),
  name: z.string(),
  /** `link`: a symbolic link, never followed (the file tools refuse it too). */
  kind: z.enum(FILE_KINDS),
  /** The protected rule (".env", ".ssh/", ...) that covers the entry, or null: protected entries are shown, never opened or mentioned. */
  protectedBy: z.string().nullable(),
  /** A dependency or cache folder (node_modules, .venv, ...): listed, but the search does not go into it. */
  skippedInSearch: z.boolean(),
});
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

/** One directory of the project, at most FILE_LIST_MAX_ENTRIES entries; `more` says how many were left out. */
export const FileListingSchema = z.object({
  path: z.string(),
  entries: z.array(ProjectFileSchema),
  more: z.number().int().nonnegative(),
});
export type FileListing = z.infer<typeof FileListingSchema>;

/** Files and folders whose path contains the query, best first. */
export const FileSearchSchema = z.object({
  query: z.string(),
  matches: z.array(ProjectFileSchema),
  /** Matches found beyond those returned. */
  more: z.number().int().nonnegative(),
  /** True when the walk stopped at its cap (entries or depth) before it saw the whole project. */
  truncated: z.boolean(),
});
export type FileSearch = z.infer<typeof FileSearchSchema>;

export const FileListInputSchema = z.strictObject({
  path: z
    .string({ error: 'The folder path must be text.' })
    .max(4096, 'The folder path is longer than 4096 characters.'),
});

export const FileSearchInputSchema = z.strictObject({
  query: z.string({ error: 'The search must be text.' }).max(256, 'The search is longer than 256 characters.'),
});
