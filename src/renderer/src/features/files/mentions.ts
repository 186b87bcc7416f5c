// What a mention is in the composer's text, and the one way a file list asks
// the composer to insert one. Pure text rules plus a tiny in-window bus, so
// the file list and the composer need no shared parent state.
import type { ProjectFile } from '../../../../shared/files';

/** `@src/app.ts`; a path with spaces is quoted (`@"my notes.md"`) so the mention ends where the path does. */
export function mentionText(path: string): string {
  return /\s|"/.test(path) ? `@"${path.replace(/"/g, '\\"')}"` : `@${path}`;
}

/** Whether a listed entry may be mentioned: never a protected one, a link (the tools refuse links) or a special file. */
export function isMentionable(file: ProjectFile): boolean {
  return file.protectedBy === null && (file.kind === 'file' || file.kind === 'dir');
}

export interface MentionToken {
  /** Index of the `@`. */
  start: number;
  /** What follows the `@`, up to the caret. */
  query: string;
}

/** The mention being typed just before `caret`: an `@` at the start or after a space, then no space. */
export function mentionAt(text: string, caret: number): MentionToken | null {
  const before = text.slice(0, caret);
  const match = /(?:^|\s)@([^\s@"]*)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[1].length - 1, query: match[1] };
}

/**
 * Replaces the token with the mention. A folder keeps the token open
 * (`@src/`), so the suggestions go on inside it; a file ends it with a space.
 */
export function insertMention(text: string, token: MentionToken, caret: number, file: Pick<ProjectFile, 'path' | 'kind'>): { text: string; caret: number } {
  if (file.kind === 'dir') return place(text.slice(0, token.start), `${mentionText(file.path)}/`, text.slice(caret), false);
  return place(text.slice(0, token.start), mentionText(file.path), text.slice(caret), true);
}

/** Adds a mention at the caret (from the file list), with a space before it when the text does not end in one. */
export function appendMention(text: string, caret: number, path: string): { text: string; caret: number } {
  const before = text.slice(0, caret);
  const gap = before === '' || /\s$/.test(before) ? '' : ' ';
  return place(before + gap, mentionText(path), text.slice(caret), true);
}

/** `before + mention + after`, ending the mention with a space unless one follows already; the caret goes past it. */
function place(before: string, mention: string, after: string, endWord: boolean): { text: string; caret: number } {
  if (!endWord) return { text: before + mention + after, caret: before.length + mention.length };
  const spaced = /^\s/.test(after);
  return { text: before + mention + (spaced ? '' : ' ') + after, caret: before.length + mention.length + 1 };
}

type MentionListener = (path: string) => void;
const listeners = new Set<MentionListener>();

/** The file list's "mention this": the window's composer inserts `@path` at its caret. */
export function requestMention(path: string): void {
  for (const listener of listeners) listener(path);
}

export function onMentionRequest(listener: MentionListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
