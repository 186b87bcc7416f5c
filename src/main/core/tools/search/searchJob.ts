// What the search tools hand their worker thread, and what it hands back. The
// worker (searchWorker.ts) walks the project and reads the files; the tool
// (searchFiles.ts, findFiles.ts) only starts it, watches it and returns its text.
import type { ToolStatus } from '../../../../shared/domain';
import type { FileHits } from './matchLines';
import type { SkipCounts, WalkPart } from './walk';

/** A file larger than this is not searched (counted as "too large"): a source file is far smaller, a data dump is no use to the model. */
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_FILE_TEXT = '1 MiB';
/** A line longer than this is shown cut, around its first match, saying so. */
export const MAX_LINE_CHARS = 300;
/** A search's whole answer stops growing here (like bash's 64 KiB of output), saying so. */
export const MAX_OUTPUT_CHARS = 64 * 1024;
export const MAX_CONTEXT_LINES = 5;
export const DEFAULT_MAX_RESULTS = 100;
export const MAX_RESULTS = 500;

/** Where and what to walk: the part both tools share. */
export interface WalkScope {
  /** Absolute, real path of the project directory. */
  projectDir: string;
  /** Project path to start from ('.' for the whole project): a folder, or one file. */
  start: string;
  /** Also walk what .gitignore files and .git/info/exclude ignore. */
  includeIgnored: boolean;
  /** A glob the files must match, relative to `start`; one without '/' matches the file name at any depth. */
  glob: string | null;
  /** The person's `protect` rules' globs (core/rules): what they cover is skipped as protected, never opened. */
  protectGlobs?: readonly string[];
}

export interface SearchJob extends WalkScope {
  kind: 'search';
  /** RegExp source and flags, checked by compilePattern before the worker starts. */
  source: string;
  flags: string;
  /** Text every match holds (compilePattern.ts requiredLiteral), or null. */
  literal: string | null;
  context: number;
  maxResults: number;
}

export interface FindJob extends WalkScope {
  kind: 'find';
  maxResults: number;
  order: 'newest' | 'name';
}

export type Job = SearchJob | FindJob;

/** A finished answer: an error found before any search (a missing path), or find_files' list. */
export interface JobReply {
  status: Extract<ToolStatus, 'completed' | 'failed' | 'invalid_arguments' | 'error'>;
  output: string;
}

/** Why a search part stopped before the end of its share of the walk. */
export type PartStop = 'max_results' | 'output';

/** What one worker found of a search, to be put together with the other parts' (mergeParts.ts). */
export interface SearchPart {
  kind: 'search-part';
  /** The files with matching lines, in walk order, each with the lines it may show. */
  files: Array<{ order: number; path: string; hits: FileHits }>;
  searched: number;
  skipped: SkipCounts;
  /** Where the part stopped, if it did: nothing of its share at or after `order` was searched. */
  stop: { order: number; reason: PartStop } | null;
}

/** What a worker posts for each request. */
export type WorkerReply = { kind: 'reply'; reply: JobReply } | SearchPart;

/** What a worker is sent: one job, and its part of it. */
export interface WorkerRequest {
  job: Job;
  part: WalkPart;
  /**
   * One Int32 the worker bumps for every entry it looks at and every file it
   * searches: the main thread's watchdog ends a worker whose count stopped.
   */
  progress: SharedArrayBuffer;
}
