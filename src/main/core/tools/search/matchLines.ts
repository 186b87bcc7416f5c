// Finds the lines of one file's text that a pattern matches, as ripgrep does
// (a match never spans lines), and prints them `path:line:text`, with context
// lines `path-line-text` and `--` between groups that do not touch. Pure.
import { MAX_LINE_CHARS } from './searchJob';

export interface FileMatches {
  /** The lines to show, formatted. */
  lines: string[];
  /** Matching lines found, at most `limit`. */
  count: number;
  /** Another matching line came after the `limit`-th. */
  more: boolean;
}

/**
 * One file's matching lines, with every line that context around them may
 * show, each as shown (cut): what a search worker sends back, so the answer
 * can be formatted (formatHits) once the parts' results are put together.
 */
export interface FileHits {
  /** Numbers of the matching lines, in order, at most the limit asked. */
  matches: number[];
  /** The lines that may be shown, by number: the matches and up to `context` lines around each. */
  lines: Map<number, string>;
  /** Another matching line came after the last one here. */
  more: boolean;
}

interface MatchedLine {
  lineNo: number;
  start: number;
  end: number;
  /** Where the first match on the line begins (text offset). */
  at: number;
}

/** The matching lines of `text` (at most `limit`), formatted with `context` lines around them. */
export function matchLines(text: string, re: RegExp, displayPath: string, context: number, limit: number): FileMatches {
  const hits = findHits(text, re, context, limit);
  return { lines: formatHits(displayPath, hits, context, hits.matches.length), count: hits.matches.length, more: hits.more };
}

/**
 * The matching lines of `text`, at most `limit`. `re` must have the g and m
 * flags. The whole text is searched in one pass: a match that runs past a
 * line's end is checked again on that line alone, so what is reported is
 * exactly the lines a line-by-line search would report.
 */
export function findHits(text: string, re: RegExp, context: number, limit: number): FileHits {
  const found = findLines(text, re, limit + 1);
  const more = found.length > limit;
  const shown = more ? found.slice(0, limit) : found;
  const lines = new Map<number, string>();
  for (const match of shown) lines.set(match.lineNo, cutLine(text, match.start, match.end, match.at));
  for (const match of shown) {
    const before = linesBefore(text, match, context);
    before.forEach((span, k) => addLine(lines, match.lineNo - before.length + k, text, span));
    linesAfter(text, match.end, context).forEach((span, k) => addLine(lines, match.lineNo + 1 + k, text, span));
  }
  return { matches: shown.map((match) => match.lineNo), lines, more };
}

/** A context line, unless the line is there already (a match keeps its window around the match). */
function addLine(lines: Map<number, string>, lineNo: number, text: string, span: Span): void {
  if (!lines.has(lineNo)) lines.set(lineNo, cutLine(text, span.start, span.end, span.start));
}

/**
 * The first `take` matches of `hits` as ripgrep prints them: `path:line:text`,
 * context lines `path-line-text` (never a line twice), and `--` between
 * groups that do not touch.
 */
export function formatHits(displayPath: string, hits: FileHits, context: number, take: number): string[] {
  const out: string[] = [];
  const matches = hits.matches.slice(0, take);
  let printedNo = 0;
  matches.forEach((lineNo, i) => {
    const from = Math.max(lineNo - context, printedNo + 1, 1);
    if (context > 0 && printedNo > 0 && from > printedNo + 1) out.push('--');
    for (let n = from; n < lineNo; n++) out.push(`${displayPath}-${n}-${hits.lines.get(n) ?? ''}`);
    out.push(`${displayPath}:${lineNo}:${hits.lines.get(lineNo) ?? ''}`);
    printedNo = lineNo;
    const next = matches[i + 1];
    const to = next === undefined ? lineNo + context : Math.min(lineNo + context, next - 1);
    // The file may end sooner: its lines stop where the table does.
    for (let n = lineNo + 1; n <= to && hits.lines.has(n); n++) {
      out.push(`${displayPath}-${n}-${hits.lines.get(n)}`);
      printedNo = n;
    }
  });
  return out;
}

function findLines(text: string, re: RegExp, wanted: number): MatchedLine[] {
  const found: MatchedLine[] = [];
  if (text === '') return found;
  const end = lastPosition(text);
  let pos = 0;
  let lineNo = 1;
  let countedTo = 0;
  while (found.length < wanted && pos <= end) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m === null || m.index > end) break;
    const start = lineStartAt(text, m.index);
    const lineEnd = lineEndAt(text, m.index);
    const at = m.index + m[0].length > lineEnd ? firstMatchInLine(text, re, start, lineEnd) : m.index;
    if (at !== null) {
      for (let nl = text.indexOf('\n', countedTo); nl !== -1 && nl < start; nl = text.indexOf('\n', nl + 1)) lineNo++;
      countedTo = start;
      found.push({ lineNo, start, end: lineEnd, at });
    }
    pos = lineEnd + 1;
  }
  return found;
}

/** The first match within the line alone (for a match that ran past its end), or null. */
function firstMatchInLine(text: string, re: RegExp, start: number, end: number): number | null {
  const lineRe = new RegExp(re.source, re.flags);
  const m = lineRe.exec(text.slice(start, end));
  return m === null ? null : start + m.index;
}

/** The last offset that belongs to a line: the text after a final newline is not a line ("a\n" has one, as in ripgrep). */
function lastPosition(text: string): number {
  return text.endsWith('\n') ? text.length - 1 : text.length;
}

/** Where the line holding `offset` begins. (lastIndexOf with a negative start still looks at offset 0.) */
function lineStartAt(text: string, offset: number): number {
  return offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEndAt(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl;
}

interface Span {
  start: number;
  end: number;
}

function linesBefore(text: string, match: MatchedLine, count: number): Span[] {
  const spans: Span[] = [];
  let start = match.start;
  while (spans.length < count && start > 0) {
    const end = start - 1;
    start = lineStartAt(text, end);
    spans.unshift({ start, end });
  }
  return spans;
}

function linesAfter(text: string, fromEnd: number, count: number): Span[] {
  const spans: Span[] = [];
  const last = lastPosition(text);
  let start = fromEnd + 1;
  while (spans.length < count && start <= last) {
    const end = lineEndAt(text, start);
    spans.push({ start, end });
    start = end + 1;
  }
  return spans;
}

/**
 * One line as shown: a carriage return at its end dropped, and a line longer
 * than MAX_LINE_CHARS cut to a window that begins a little before `at` (its
 * first match), saying so.
 */
export function cutLine(text: string, start: number, end: number, at: number): string {
  const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
  const length = lineEnd - start;
  if (length <= MAX_LINE_CHARS) return text.slice(start, lineEnd);
  const from = Math.max(start, Math.min(at - 100, lineEnd - MAX_LINE_CHARS));
  const to = from + MAX_LINE_CHARS;
  const head = from > start ? '…' : '';
  const tail = to < lineEnd ? '…' : '';
  return `${head}${text.slice(from, to)}${tail} [line cut: ${length.toLocaleString('en-US')} characters]`;
}
