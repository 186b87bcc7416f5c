// @mentions in the composer: typing `@` and part of a path lists matching
// project files above the message box; arrows move, Enter or Tab picks,
// Escape closes. While the list is open it takes those keys first, so Enter
// does not send and Escape does not stop a turn. Protected files, links and
// special files are never suggested. The file list's "mention" requests land
// here too, at the caret.
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject, type SyntheticEvent } from 'react';
import type { ProjectFile } from '../../../../shared/files';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import { SuggestionList } from '../../components/SuggestionList';
import { listboxKey } from '../../lib/listboxKeys';
import { appendMention, insertMention, isMentionable, mentionAt, onMentionRequest } from './mentions';
import { useFileSearch } from './useFileSearch';
import './Files.css';

const MAX_SUGGESTIONS = 8;

export interface Mentions {
  /** Spread on the textarea. */
  inputProps: {
    ref: RefObject<HTMLTextAreaElement | null>;
    onSelect(event: SyntheticEvent<HTMLTextAreaElement>): void;
    'aria-autocomplete': 'list';
    'aria-controls': string | undefined;
    'aria-activedescendant': string | undefined;
  };
  /** Call first in the textarea's keydown; true when the key was the list's. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The suggestions, to render just before the textarea (they float above it). */
  popup: React.ReactNode;
}

/**
 * Puts the caret where an inserted mention ends, once the text holding it has
 * rendered: `place(at)` before setting the text. Requests from the file list
 * land at the caret when the box has focus, else at the end.
 */
function useMentionCaret(ref: RefObject<HTMLTextAreaElement | null>, text: string, setText: (text: string) => void, caretSeen: (at: number) => void) {
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !ref.current) return;
    pendingCaret.current = null;
    ref.current.focus();
    ref.current.setSelectionRange(at, at);
    caretSeen(at);
  }, [text]);

  // The latest text and setter, for requests from the file list.
  const latest = useRef({ text, setText });
  latest.current = { text, setText };
  useEffect(
    () =>
      onMentionRequest((path) => {
        const el = ref.current;
        const current = latest.current.text;
        const at = el && document.activeElement === el ? el.selectionStart : current.length;
        const next = appendMention(current, at, path);
        pendingCaret.current = next.caret;
        latest.current.setText(next.text);
      }),
    [],
  );
  return (at: number) => {
    pendingCaret.current = at;
  };
}

interface MentionPopupProps {
  listId: string;
  query: string;
  options: ProjectFile[];
  selected: number;
  optionId(index: number): string;
  onPick(file: ProjectFile): void;
}

/** The files that match, or a line saying none does. */
function MentionPopup({ listId, query, options, selected, optionId, onPick }: MentionPopupProps) {
  return (
    <div className="mention-anchor">
      {options.length === 0 ? (
        <p className="mention-list muted small" role="status">
          No project file matches “@{query}”.
        </p>
      ) : (
        <SuggestionList listId={listId} label="Files to mention" options={options} selected={selected} optionId={optionId} keyOf={(file) => file.path} onPick={onPick}>
          {(file) => markHiddenCharacters(file.kind === 'dir' ? `${file.path}/` : file.path)}
        </SuggestionList>
      )}
    </div>
  );
}

export function useMentions(text: string, setText: (text: string) => void): Mentions {
  const ref = useRef<HTMLTextAreaElement | null>(null);
  const listId = useId();
  const [, setCaretSeen] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const placeCaret = useMentionCaret(ref, text, setText, setCaretSeen);

  // The caret as the textarea has it now (typing has already moved it when this renders).
  const caret = ref.current ? ref.current.selectionStart : text.length;
  const token = mentionAt(text, caret);
  const open = token !== null && dismissed !== token.start;
  const { result } = useFileSearch(open ? token.query : null);
  const options: ProjectFile[] = (result?.matches ?? []).filter(isMentionable).slice(0, MAX_SUGGESTIONS);
  const selected = Math.min(active, Math.max(0, options.length - 1));

  useEffect(() => setActive(0), [token?.query]);
  const typing = token !== null;
  useEffect(() => {
    if (!typing) setDismissed(null);
  }, [typing]);

  function pick(file: ProjectFile) {
    if (!token) return;
    const next = insertMention(text, token, caret, file);
    placeCaret(next.caret);
    setText(next.text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (!open || result === null) return false;
    const key = listboxKey(event, options.length, selected);
    if (key === null) return false;
    if (key.kind === 'dismiss') setDismissed(token.start);
    else if (key.kind === 'move') setActive(key.index);
    else pick(options[selected]);
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  const showing = open && result !== null;
  const optionId = (index: number) => `${listId}-option-${index}`;
  return {
    inputProps: {
      ref,
      onSelect: (event) => setCaretSeen(event.currentTarget.selectionStart),
      'aria-autocomplete': 'list',
      'aria-controls': showing && options.length > 0 ? listId : undefined,
      'aria-activedescendant': showing && options.length > 0 ? optionId(selected) : undefined,
    },
    onKeyDown,
    popup: showing ? <MentionPopup listId={listId} query={token.query} options={options} selected={selected} optionId={optionId} onPick={pick} /> : null,
  };
}
