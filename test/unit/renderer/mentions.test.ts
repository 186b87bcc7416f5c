// The text rules of @mentions: where the mention being typed starts, what a
// pick puts in its place, what a click in the file list adds, and which
// entries may be mentioned at all.
import { describe, expect, it } from 'vitest';
import { appendMention, insertMention, isMentionable, mentionAt, mentionText } from '../../../src/renderer/src/features/files/mentions';
import type { ProjectFile } from '../../../src/shared/files';

const file = (over: Partial<ProjectFile>): ProjectFile => ({ path: 'a.ts', name: 'a.ts', kind: 'file', protectedBy: null, skippedInSearch: false, ...over });

describe('mentionAt', () => {
  it('finds an @ at the start or after white space, up to the caret', () => {
    expect(mentionAt('@sr', 3)).toEqual({ start: 0, query: 'sr' });
    expect(mentionAt('Explain @src/ma', 15)).toEqual({ start: 8, query: 'src/ma' });
    expect(mentionAt('line one\n@', 10)).toEqual({ start: 9, query: '' });
    // The caret decides: what follows it is not part of the query.
    expect(mentionAt('see @src/main.ts now', 8)).toEqual({ start: 4, query: 'src' });
  });

  it('ignores an @ inside a word (an e-mail address), after a finished mention, or with a quote', () => {
    expect(mentionAt('mail me@example.com', 19)).toBeNull();
    expect(mentionAt('@src/main.ts ', 13)).toBeNull();
    expect(mentionAt('@"my no', 7)).toBeNull();
    expect(mentionAt('no mention', 10)).toBeNull();
  });
});

describe('inserting a mention', () => {
  it('replaces the token with the file and a space (one, even before a space), keeping the text after the caret', () => {
    const text = 'Explain @sr please';
    expect(insertMention(text, { start: 8, query: 'sr' }, 11, { path: 'src/main.ts', kind: 'file' })).toEqual({ text: 'Explain @src/main.ts please', caret: 21 });
  });

  it('leaves a folder open with a slash so the suggestions go on inside it', () => {
    expect(insertMention('@scr', { start: 0, query: 'scr' }, 4, { path: 'scripts', kind: 'dir' })).toEqual({ text: '@scripts/', caret: 9 });
    expect(insertMention('@sr', { start: 0, query: 'sr' }, 3, { path: 'src/main.ts', kind: 'file' })).toEqual({ text: '@src/main.ts ', caret: 13 });
  });

  it('quotes a path with spaces or quotes', () => {
    expect(mentionText('docs/my notes.md')).toBe('@"docs/my notes.md"');
    expect(mentionText('a"b.txt')).toBe('@"a\\"b.txt"');
    expect(mentionText('src/app.ts')).toBe('@src/app.ts');
  });

  it('adds a clicked file at the caret, with a space before it only when needed', () => {
    expect(appendMention('', 0, 'README.md')).toEqual({ text: '@README.md ', caret: 11 });
    expect(appendMention('Explain', 7, 'README.md')).toEqual({ text: 'Explain @README.md ', caret: 19 });
    expect(appendMention('Explain  and', 8, 'a.ts')).toEqual({ text: 'Explain @a.ts and', caret: 14 });
    expect(appendMention('Explain and', 7, 'a.ts')).toEqual({ text: 'Explain @a.ts and', caret: 14 });
  });
});

describe('isMentionable', () => {
  it('offers plain files and folders, never a protected entry, a link or a special file', () => {
    expect(isMentionable(file({}))).toBe(true);
    expect(isMentionable(file({ kind: 'dir' }))).toBe(true);
    expect(isMentionable(file({ path: '.env', name: '.env', protectedBy: '.env' }))).toBe(false);
    expect(isMentionable(file({ kind: 'dir', protectedBy: '.ssh/' }))).toBe(false);
    expect(isMentionable(file({ kind: 'link' }))).toBe(false);
    expect(isMentionable(file({ kind: 'other' }))).toBe(false);
  });
});
