// The unified diff a write confirmation carries. A line diff of a whole 60 KiB
// file costs about as much as the write itself, while an edit changes a few
// lines; so the unchanged lines before and after the change are set aside,
// only the window around it (with its context) is diffed, and the hunks are
// moved back to their real line numbers.
import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import type { ReviewHunk } from '../../../shared/review';
import { applyReview } from '../../../shared/reviewEdits';

const CONTEXT_LINES = 3;

export function unifiedDiff(p: string, oldText: string, newText: string): string {
  return formatPatch(unifiedPatch(p, oldText, newText));
}

/**
 * The hunks of `patch` (unifiedPatch of the same two texts) as spans of
 * `oldText` and their replacements, in the diff's order, so the person can
 * reject them one by one. Null when they would not give `newText` back
 * exactly (then the change can be approved only whole).
 */
export function reviewHunks(oldText: string, newText: string, patch: StructuredPatch): ReviewHunk[] | null {
  const oldStarts = lineStarts(oldText);
  const newStarts = lineStarts(newText);
  const hunks = patch.hunks.map((hunk) => ({
    from: offsetOfLine(oldStarts, oldText, hunk.oldStart - 1),
    to: offsetOfLine(oldStarts, oldText, hunk.oldStart - 1 + hunk.oldLines),
    insert: newText.slice(offsetOfLine(newStarts, newText, hunk.newStart - 1), offsetOfLine(newStarts, newText, hunk.newStart - 1 + hunk.newLines)),
  }));
  return applyReview(oldText, hunks, new Set()) === newText ? hunks : null;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function offsetOfLine(starts: readonly number[], text: string, line: number): number {
  return line < starts.length ? (starts[line] as number) : text.length;
}

/** The structured patch unifiedDiff formats: hunks at their real line numbers. */
export function unifiedPatch(p: string, oldText: string, newText: string): StructuredPatch {
  const start = lineStartBefore(oldText, commonPrefixLength(oldText, newText), CONTEXT_LINES);
  const maxSuffix = Math.min(oldText.length, newText.length) - start;
  const suffix = lineEndAfter(oldText, commonSuffixLength(oldText, newText, maxSuffix), CONTEXT_LINES);
  const skippedLines = countNewlines(oldText, start);
  const patch = structuredPatch(p, p, oldText.slice(start, oldText.length - suffix), newText.slice(start, newText.length - suffix), undefined, undefined, {
    context: CONTEXT_LINES,
  });
  for (const hunk of patch.hunks) {
    hunk.oldStart += skippedLines;
    hunk.newStart += skippedLines;
  }
  return patch;
}

// Compared a chunk at a time: string equality is a memory compare, while a
// charCodeAt loop over a concatenated string is many times slower.
const CHUNK = 256;

function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i + CHUNK <= max && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffixLength(a: string, b: string, max: number): number {
  let i = 0;
  while (i + CHUNK <= max && a.slice(a.length - i - CHUNK, a.length - i) === b.slice(b.length - i - CHUNK, b.length - i)) i += CHUNK;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/** Start of the line `lines` lines above the one holding `index` (a line boundary, so the window keeps whole lines). */
function lineStartBefore(text: string, index: number, lines: number): number {
  // lastIndexOf clamps a negative position to 0 and would still match there, hence the guards.
  let start = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
  for (let i = 0; i < lines && start > 0; i++) start = start < 2 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
  return start;
}

/**
 * Length of the tail to set aside: the common suffix of `suffixLength`
 * characters, shortened to start at a line boundary `lines` lines below the
 * change.
 */
function lineEndAfter(text: string, suffixLength: number, lines: number): number {
  // First line boundary at or after the end of the change.
  let end = text.length - suffixLength;
  if (end > 0 && text.charCodeAt(end - 1) !== 0x0a) {
    const next = text.indexOf('\n', end);
    end = next === -1 ? text.length : next + 1;
  }
  for (let i = 0; i < lines && end < text.length; i++) {
    const next = text.indexOf('\n', end);
    end = next === -1 ? text.length : next + 1;
  }
  return text.length - end;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
