// The person's message in the transcript. A long one (a pasted log, a file)
// is folded to its first lines with *Show all*, so it does not push the
// conversation out of view; the whole text stays in the page for search and
// screen readers.
import { useState } from 'react';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';

/** A message longer than this (in lines, or characters for long lines) is folded. */
export const FOLD_LINES = 12;
export const FOLD_CHARS = 1_500;

export function isLongMessage(text: string): boolean {
  return text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
}

export function MessageText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = isLongMessage(text);
  const folded = long && !open;
  return (
    <>
      <p className={`message-text${folded ? ' message-folded' : ''}`} data-testid="message-text">
        {markHiddenCharacters(text)}
      </p>
      {long && (
        <button type="button" className="ghost small message-fold" aria-expanded={open} onClick={() => setOpen((was) => !was)}>
          {open ? 'Show less' : `Show all (${text.split('\n').length} lines)`}
        </button>
      )}
    </>
  );
}
