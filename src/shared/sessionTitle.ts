// What a session is called: the title a person gave it, or else its first
// question, shortened. One rule for the window title, the header and the list.
import { z } from 'zod';
import { markHiddenCharacters } from './hiddenCharacters';

/** How much of a first question names its session. */
const LABEL_LENGTH = 60;
/** The longest title a person can give a session. */
export const MAX_SESSION_TITLE_CHARS = 80;

// Control characters (line breaks, tabs, escapes) and bidirectional controls,
// which would make a title display differently from what it holds.
const UNSHOWABLE = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** A title a person gives a session, as the renderer sends it and the log keeps it. */
export const SessionTitleSchema = z
  .string({ error: 'The session title must be text.' })
  .trim()
  .min(1, 'The session title is empty: type a name for the session.')
  .max(MAX_SESSION_TITLE_CHARS, `The session title is longer than ${MAX_SESSION_TITLE_CHARS} characters: shorten it.`)
  .refine((title) => !UNSHOWABLE.test(title), 'The session title cannot contain line breaks, tabs or other control characters: type it on one line.');

/**
 * The person's title if there is one, else the first question shortened; "Untitled session" until there is one.
 * Either is shown with its hidden characters (bidirectional controls, zero-width and other format characters) as
 * visible marks, like all text a person reads (hiddenCharacters.ts): a question can come from anywhere, pasted
 * or scripted, and a right-to-left override in it would make the title read otherwise than it is.
 */
export function sessionLabel(firstQuestion: string | null, title: string | null = null): string {
  if (title) return markHiddenCharacters(title);
  const text = firstQuestion?.replace(/\s+/g, ' ').trim() ?? '';
  if (!text) return 'Untitled session';
  const marked = markHiddenCharacters(text);
  return marked.length > LABEL_LENGTH ? `${shownPrefix(text, LABEL_LENGTH - 1)}…` : marked;
}

/** The longest start of `text`, as shown (marks for hidden characters), that fits `length`; never half a character or half a mark. */
function shownPrefix(text: string, length: number): string {
  let shown = '';
  for (const character of text) {
    const next = markHiddenCharacters(character);
    if (shown.length + next.length > length) break;
    shown += next;
  }
  return shown;
}

/** `title` as it is saved (trimmed), or an Error saying what is wrong with it. */
export function checkedSessionTitle(title: unknown): string {
  const parsed = SessionTitleSchema.safeParse(title);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'The session title is not valid.');
  return parsed.data;
}
