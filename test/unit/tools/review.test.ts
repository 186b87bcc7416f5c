// The change by hunk that a file ask offers for review, and main's reading of
// the person's review: hunks that rebuild the proposal exactly (line endings,
// a missing final newline, a new file), any choice of them applied, and the
// checks on the person's own text.
import { describe, expect, it } from 'vitest';
import { resolveReview, revisionNote } from '../../../src/main/core/agent/review';
import { reviewedChange } from '../../../src/main/core/tools/review';
import type { ProjectPath } from '../../../src/main/core/tools/types';
import { applyReview } from '../../../src/shared/reviewEdits';
import { describeSize, utf8Length } from '../../../src/shared/textSize';

const p = 'notes.txt' as ProjectPath;
const lines = (n: number, change: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => change[i] ?? `line ${i + 1}\n`).join('');

describe('the change by hunk', () => {
  it('splits distant changes into the diff\'s hunks, and any choice of them rebuilds the file', () => {
    const before = lines(30);
    const proposed = lines(30, { 2: 'third\n', 25: 'twenty-six\n' });
    const { diff, review } = reviewedChange(p, before, proposed);
    expect(review?.hunks).toHaveLength(2);
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    const hunks = review?.hunks ?? [];
    expect(applyReview(before, hunks, new Set())).toBe(proposed);
    expect(applyReview(before, hunks, new Set([0, 1]))).toBe(before);
    expect(applyReview(before, hunks, new Set([1]))).toBe(lines(30, { 2: 'third\n' }));
    expect(applyReview(before, hunks, new Set([0]))).toBe(lines(30, { 25: 'twenty-six\n' }));
  });

  it.each([
    ['a final newline added', 'a\nb', 'a\nb\n'],
    ['a final newline removed', 'a\nb\n', 'a\nb'],
    ['a new file', '', 'one\ntwo\n'],
    ['everything removed', 'one\ntwo\n', ''],
    ['CRLF lines', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n'],
    ['a line inserted at the top', '1\n2\n', 'x\n1\n2\n'],
  ])('rebuilds the proposal exactly: %s', (_name, before, proposed) => {
    const { review } = reviewedChange(p, before, proposed);
    expect(review).toBeDefined();
    expect(applyReview(before, review?.hunks ?? [], new Set())).toBe(proposed);
    expect(applyReview(before, review?.hunks ?? [], new Set(review?.hunks.map((_, i) => i)))).toBe(before);
  });

  it('counts sizes as the confirmation does, without Buffer', () => {
    expect(utf8Length('aé€😀')).toBe(Buffer.byteLength('aé€😀'));
    expect(describeSize('package main\n\nconst greeting = "hello"\n')).toBe('39 bytes, 3 lines');
  });
});

describe('main\'s reading of a review', () => {
  const before = lines(30);
  const proposed = lines(30, { 2: 'third\n', 25: 'twenty-six\n' });
  const subject = reviewedChange(p, before, proposed).review!;

  it('computes the content and its SHA-256 itself, and says nothing changed when the proposal is kept', () => {
    const kept = resolveReview(subject, { path: p, rejectedHunks: [] });
    expect(kept).toEqual({ ok: true, revision: null });
    const partial = resolveReview(subject, { path: p, rejectedHunks: [1, 1] });
    expect(partial).toMatchObject({ ok: true, revision: { content: lines(30, { 2: 'third\n' }), rejectedHunks: [1], edited: false } });
    if (partial.ok && partial.revision) expect(partial.revision.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses another path, a hunk that does not exist, a NUL and text over 256 KiB', () => {
    expect(resolveReview(subject, { path: 'other.txt', rejectedHunks: [] })).toMatchObject({ ok: false });
    expect(resolveReview(subject, { path: p, rejectedHunks: [2] })).toMatchObject({ ok: false, message: expect.stringContaining('2 hunks') });
    expect(resolveReview(subject, { path: p, rejectedHunks: [], content: 'a\0' })).toMatchObject({ ok: false });
    expect(resolveReview(subject, { path: p, rejectedHunks: [], content: '€'.repeat(90_000) })).toMatchObject({ ok: false, message: expect.stringContaining('256 KiB') });
    expect(resolveReview(undefined, { path: p, rejectedHunks: [] })).toMatchObject({ ok: false });
  });

  it('tells the model what was written, how it differs from its proposal, and its digest', () => {
    const resolved = resolveReview(subject, { path: p, rejectedHunks: [0], content: lines(30, { 25: 'XXVI\n' }) });
    if (!resolved.ok || !resolved.revision) throw new Error('expected a revision');
    const note = revisionNote(subject, resolved.revision);
    expect(note).toContain('rejected hunk 1 (of 2 in your diff) and rewrote the text');
    expect(note).toContain(resolved.revision.sha256);
    expect(note).toContain('-third');
    expect(note).toContain('+XXVI');
  });
});
