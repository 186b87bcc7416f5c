// search_files: a restricted read that searches the text of project files for
// a pattern, like ripgrep, without asking. The walk and the matching run in a
// worker thread (search/), which never opens a protected file, follows no
// link and is ended when a pattern stops making progress.
import { z } from 'zod';
import { compilePattern, requiredLiteral } from './search/compilePattern';
import { includeIgnoredArg, maxResultsArg, pathArg, runSearch, searchFields, validateSearchArgs, type ScopeArgs } from './search/searchArgs';
import { DEFAULT_MAX_RESULTS, MAX_CONTEXT_LINES, MAX_FILE_TEXT, MAX_LINE_CHARS, MAX_RESULTS } from './search/searchJob';
import type { ProjectPath, Tool, Validation } from './types';

export interface SearchFilesArgs extends ScopeArgs {
  pattern: string;
  path?: ProjectPath;
  glob?: string;
  fixed_strings?: boolean;
  case_insensitive?: boolean;
  context?: number;
}

const argsSchema = z.strictObject({
  pattern: z
    .string()
    .min(1, { message: 'the pattern is empty' })
    .describe('A regular expression (JavaScript syntax, matched within one line), or literal text with "fixed_strings": true.'),
  path: pathArg,
  glob: z
    .string()
    .optional()
    .describe('Only files whose path relative to "path" matches this glob, e.g. "**/*.ts" or "src/**/*.{ts,tsx}"; a glob without "/" matches file names at any depth, e.g. "*.md".'),
  fixed_strings: z.boolean().optional().describe('true: the pattern is literal text, not a regular expression.'),
  case_insensitive: z.boolean().optional().describe('true: ignore case.'),
  context: z
    .number()
    .int()
    .min(0)
    .max(MAX_CONTEXT_LINES)
    .optional()
    .describe(`Lines to show before and after each matching line (0 to ${MAX_CONTEXT_LINES}; default 0).`),
  max_results: maxResultsArg,
  include_ignored: includeIgnoredArg,
}) as unknown as z.ZodType<SearchFilesArgs>;

const EXAMPLE = '{"pattern": "function\\\\s+parse", "glob": "*.ts"} or {"pattern": "TODO(", "fixed_strings": true, "path": "src", "context": 2}';

export interface SearchToolOptions {
  /** The watchdog's tick (runSearchWorker.ts); tests make it short. */
  watchdogTickMs?: number;
}

export function createSearchFilesTool(options: SearchToolOptions = {}): Tool<SearchFilesArgs, null> {
  return {
    name: 'search_files',
    description:
      'Search the text of the project\'s files for a regular expression (JavaScript syntax; "fixed_strings": true for literal text), ' +
      'like ripgrep, without asking the user. Returns each matching line as path:line:text (context lines as path-line-text, ' +
      `"--" between groups), lines over ${MAX_LINE_CHARS} characters cut around the match, and a last line with the counts: ` +
      'matching lines, files searched, and what was skipped and why. Searches the whole project, or "path" (a folder or file), ' +
      `optionally only files matching "glob". Skips protected files (.env, keys, .git/, ...), binary files, files over ${MAX_FILE_TEXT}, ` +
      'what .gitignore files ignore (unless "include_ignored": true) and symbolic links (never followed). ' +
      `Returns at most max_results matching lines (default ${DEFAULT_MAX_RESULTS}, at most ${MAX_RESULTS}). ` +
      'Use it instead of grep, rg or find in bash.',
    kind: 'restricted_read',
    argsSchema,
    validate(raw: unknown): Validation<SearchFilesArgs> {
      const validated = validateSearchArgs('search_files', argsSchema, raw, EXAMPLE);
      if (!validated.ok) return validated;
      const compiled = compilePattern(validated.args.pattern, patternOptions(validated.args));
      return compiled.ok ? validated : { ok: false, reason: `Invalid search_files arguments (pattern: ${compiled.reason})` };
    },
    // The path is judged as a possible folder: a protected folder (.git, .ssh) is refused like a protected file.
    target: (args) => ({ path: args.path ?? ('.' as ProjectPath) }),
    // Nothing to inspect: a restricted read is not asked about, and execute applies the ~/.mino guard first.
    async inspect(args, ctx) {
      const what = [
        { label: 'Pattern', value: args.fixed_strings ? `${args.pattern} (literal text)` : args.pattern },
        ...(args.glob !== undefined ? [{ label: 'Glob', value: args.glob }] : []),
      ];
      return { ok: true, state: null, confirmation: { tool: 'search_files', fields: searchFields(args, ctx, what) } };
    },
    async execute(args, _state, ctx) {
      const compiled = compilePattern(args.pattern, patternOptions(args));
      if (!compiled.ok) return { status: 'invalid_arguments', output: compiled.reason };
      const job = {
        kind: 'search' as const,
        projectDir: ctx.projectDir,
        start: args.path ?? '.',
        includeIgnored: args.include_ignored === true,
        glob: args.glob ?? null,
        source: compiled.pattern.source,
        flags: compiled.pattern.flags,
        literal: requiredLiteral(compiled.pattern),
        context: args.context ?? 0,
        maxResults: args.max_results ?? DEFAULT_MAX_RESULTS,
      };
      return runSearch(job, ctx, options.watchdogTickMs);
    },
    denialMessage: 'The user did not approve this search; nothing was read. Do not retry without a new user request.',
  };
}

function patternOptions(args: SearchFilesArgs): { fixedStrings: boolean; caseInsensitive: boolean } {
  return { fixedStrings: args.fixed_strings === true, caseInsensitive: args.case_insensitive === true };
}

export const searchFilesTool = createSearchFilesTool();
