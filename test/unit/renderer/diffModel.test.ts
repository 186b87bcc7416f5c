import { describe, expect, it } from 'vitest';
import { formatPatch, structuredPatch } from 'diff';
import { diffModel } from '../../../src/renderer/src/components/diffModel';

/** The diff as core's unifiedDiff writes it: formatPatch with Index and ==== lines. */
function patch(path: string, before: string, after: string): string {
  return formatPatch(structuredPatch(path, path, before, after, undefined, undefined, { context: 3 }));
}

function summary(diff: string) {
  const model = diffModel(diff);
  return model.hunks.flatMap((hunk) =>
    hunk.changes.map((change) =>
      change.type === 'normal' ? [' ', change.oldLineNumber, change.newLineNumber, change.content] : [change.type === 'insert' ? '+' : '-', change.lineNumber, change.content],
    ),
  );
}

describe('diffModel', () => {
  it('numbers old and new lines and drops the patch headers', () => {
    const diff = patch('src/a.ts', 'one\ntwo\nthree\n', 'one\nTWO\nthree\nfour\n');
    expect(diff).toContain('Index: src/a.ts');
    const model = diffModel(diff);
    expect(model.path).toBe('src/a.ts');
    expect(model.added).toBe(2);
    expect(model.removed).toBe(1);
    expect(model.hunks).toHaveLength(1);
    expect(model.hunks[0]?.content).toBe('@@ -1,3 +1,4 @@');
    expect(summary(diff)).toEqual([
      [' ', 1, 1, 'one'],
      ['-', 2, 'two'],
      ['+', 2, 'TWO'],
      [' ', 3, 3, 'three'],
      ['+', 4, 'four'],
    ]);
    const contents = model.hunks.flatMap((hunk) => hunk.changes.map((change) => change.content));
    expect(contents.some((line) => line.startsWith('Index:') || line.startsWith('===='))).toBe(false);
  });

  it('keeps added and removed lines that look like file headers as lines of the file', () => {
    const before = 'x\n-- comment\n';
    const after = 'x\n++counter;\n+++ b/file\n--- a/file\n';
    expect(summary(patch('c.js', before, after))).toEqual([
      [' ', 1, 1, 'x'],
      ['-', 2, '-- comment'],
      ['+', 2, '++counter;'],
      ['+', 3, '+++ b/file'],
      ['+', 4, '--- a/file'],
    ]);
  });

  it('counts from the real line numbers of a hunk further down, and keeps hunks apart', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const changed = lines.map((line, i) => (i === 4 || i === 34 ? `${line} changed` : line));
    const model = diffModel(patch('long.txt', `${lines.join('\n')}\n`, `${changed.join('\n')}\n`));
    expect(model.hunks.map((hunk) => [hunk.oldStart, hunk.newStart])).toEqual([
      [2, 2],
      [32, 32],
    ]);
    const second = model.hunks[1]!.changes.find((change) => change.type === 'insert');
    expect(second).toMatchObject({ lineNumber: 35, content: 'line 35 changed' });
  });

  it('reads a new file as added lines from line 1 and a missing final newline as no line', () => {
    const model = diffModel(patch('new.py', '', 'a = 1\nb = 2'));
    expect(model.removed).toBe(0);
    expect(model.hunks[0]).toMatchObject({ content: '@@ -0,0 +1,2 @@', oldLines: 0, newStart: 1, newLines: 2 });
    expect(summary(patch('new.py', '', 'a = 1\nb = 2'))).toEqual([
      ['+', 1, 'a = 1'],
      ['+', 2, 'b = 2'],
    ]);
  });

  it('shows hidden characters as marks in the lines and the path', () => {
    const model = diffModel(patch('x\u202e.txt', 'a\n', 'a\u202eb\n'));
    expect(model.path).toBe('x⟨U+202E⟩.txt');
    expect(summary(patch('x.txt', 'a\n', 'a\u202eb\n'))).toContainEqual(['+', 1, 'a⟨U+202E⟩b']);
  });

  it('gives no hunks for text that is not a diff, and throws on a malformed hunk', () => {
    expect(diffModel('just some text\n').hunks).toEqual([]);
    expect(() => diffModel('@@ -1,2 +1,2 @@\n-a\n+b\ngarbage\n')).toThrow();
  });
});
