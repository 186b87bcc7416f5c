// find_files: a restricted read that lists the project files whose path
// matches a glob, without asking. The walk runs in the search tools' worker
// thread (search/), with their rules: no protected entry, no link followed,
// what .gitignore ignores left out unless asked.
import { z } from 'zod';
import { includeIgnoredArg, maxResultsArg, pathArg, runSearch, searchFields, validateSearchArgs, type ScopeArgs } from './search/searchArgs';
import { DEFAULT_MAX_RESULTS, MAX_RESULTS } from './search/searchJob';
import type { SearchToolOptions } from './searchFiles';
import type { ProjectPath, Tool } from './types';

export interface FindFilesArgs extends ScopeArgs {
  pattern: string;
  path?: ProjectPath;
  sort?: 'newest' | 'name';
}

const argsSchema = z.strictObject({
  pattern: z
    .string()
    .min(1, { message: 'the pattern is empty' })
    .describe('A glob matched against paths relative to "path", e.g. "**/*.test.ts" or "src/**/index.{ts,tsx}"; a glob without "/" matches file names at any depth, e.g. "*.md".'),
  path: pathArg,
  sort: z.enum(['newest', 'name']).optional().describe('"newest" (default): most recently modified first; "name": by path.'),
  max_results: maxResultsArg,
  include_ignored: includeIgnoredArg,
}) as unknown as z.ZodType<FindFilesArgs>;

const EXAMPLE = '{"pattern": "**/*.test.ts"} or {"pattern": "*.md", "path": "docs", "sort": "name"}';

export function createFindFilesTool(options: SearchToolOptions = {}): Tool<FindFilesArgs, null> {
  return {
    name: 'find_files',
    description:
      'Find the project\'s files whose path matches a glob (e.g. "**/*.test.ts", "*.md", "src/**/index.{ts,tsx}"), without asking the user. ' +
      'The glob is matched against paths relative to "path" (default: the whole project); one without "/" matches file names at any depth. ' +
      'Returns one project path a line, newest first (or by name with "sort": "name"), and a last line with the counts and what was skipped and why. ' +
      'Skips protected files (.env, keys, .git/, ...), what .gitignore files ignore (unless "include_ignored": true) and symbolic links (never followed). ' +
      `Returns at most max_results paths (default ${DEFAULT_MAX_RESULTS}, at most ${MAX_RESULTS}). Use it instead of find or ls -R in bash.`,
    kind: 'restricted_read',
    argsSchema,
    validate: (raw) => validateSearchArgs('find_files', argsSchema, raw, EXAMPLE, { globField: 'pattern' }),
    target: (args) => ({ path: args.path ?? ('.' as ProjectPath) }),
    // Nothing to inspect: a restricted read is not asked about, and execute applies the ~/.mino guard first.
    async inspect(args, ctx) {
      return { ok: true, state: null, confirmation: { tool: 'find_files', fields: searchFields(args, ctx, [{ label: 'Pattern', value: args.pattern }]) } };
    },
    async execute(args, _state, ctx) {
      const job = {
        kind: 'find' as const,
        projectDir: ctx.projectDir,
        start: args.path ?? '.',
        includeIgnored: args.include_ignored === true,
        glob: args.pattern,
        maxResults: args.max_results ?? DEFAULT_MAX_RESULTS,
        order: args.sort ?? 'newest',
      };
      return runSearch(job, ctx, options.watchdogTickMs);
    },
    denialMessage: 'The user did not approve this search; nothing was read. Do not retry without a new user request.',
  };
}

export const findFilesTool = createFindFilesTool();
