// The last line of a search_files or find_files answer: what was found, what
// was looked through, what was skipped and why, and whether the answer was
// cut. Pure.
import { MAX_FILE_TEXT, MAX_RESULTS } from './searchJob';
import type { SkipCounts } from './walk';

export type SearchCut = null | 'max_results' | 'output';

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "skipped: 1 protected (never opened), 2 binary, ..." or "nothing skipped". A skipped folder counts once. */
export function skippedText(skipped: SkipCounts): string {
  const parts = [
    skipped.protected > 0 ? `${count(skipped.protected, 'protected entry', 'protected entries')} (never opened)` : '',
    skipped.binary > 0 ? `${count(skipped.binary, 'binary file')}` : '',
    skipped.tooLarge > 0 ? `${count(skipped.tooLarge, 'file')} too large (over ${MAX_FILE_TEXT})` : '',
    skipped.ignored > 0 ? `${count(skipped.ignored, 'entry', 'entries')} ignored by .gitignore ("include_ignored": true includes them)` : '',
    skipped.links > 0 ? `${count(skipped.links, 'link')} (links are not followed)` : '',
    skipped.unreadable > 0 ? `${count(skipped.unreadable, 'unreadable entry', 'unreadable entries')}` : '',
    skipped.special > 0 ? `${count(skipped.special, 'special file')} (FIFO, socket or device)` : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? `skipped ${parts.join(', ')}` : 'nothing skipped';
}

export interface SearchCounts {
  matches: number;
  matchedFiles: number;
  searched: number;
  skipped: SkipCounts;
  cut: SearchCut;
  maxResults: number;
}

/** "3 matching lines in 2 files; 40 files searched; skipped 1 binary file." and, when cut, what to do. */
export function searchSummary(counts: SearchCounts): string {
  const found = `${count(counts.matches, 'matching line')} in ${count(counts.matchedFiles, 'file')}`;
  const line = `${found}; ${count(counts.searched, 'file')} searched; ${skippedText(counts.skipped)}.`;
  if (counts.cut === 'max_results') {
    return `${line} Stopped at max_results (${counts.maxResults}): there are more matches; narrow the pattern, path or glob, or raise max_results (at most ${MAX_RESULTS}).`;
  }
  if (counts.cut === 'output') {
    return `${line} Stopped when the answer reached 64 KiB: there are more matches; narrow the pattern, path or glob, or ask for less context.`;
  }
  return line;
}

export interface FindCounts {
  found: number;
  shown: number;
  glob: string;
  order: 'newest' | 'name';
  skipped: SkipCounts;
}

/** "12 files match "**\/*.ts", newest first (by modification time); skipped ...". */
export function findSummary(counts: FindCounts): string {
  const order = counts.order === 'newest' ? 'newest first (by modification time)' : 'by name';
  const shown =
    counts.shown < counts.found
      ? `; showing the first ${counts.shown} (max_results): narrow the pattern or path, or raise max_results (at most ${MAX_RESULTS})`
      : '';
  return `${count(counts.found, 'file')} ${counts.found === 1 ? 'matches' : 'match'} ${JSON.stringify(counts.glob)}, ${order}${shown}; ${skippedText(counts.skipped)}.`;
}
