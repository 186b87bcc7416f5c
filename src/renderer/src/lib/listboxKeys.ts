// The keys of a suggestion list that pops up under a text field (the `/`
// commands, the @ mentions): the focus stays in the field, so the field's
// keys drive the list. Escape closes it, the arrows move through it
// (wrapping), Enter or Tab without modifiers picks the active option.
export type ListboxKey = { kind: 'dismiss' } | { kind: 'move'; index: number } | { kind: 'pick'; by: 'enter' | 'tab' };

interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** What `press` does to an open list of `count` options whose active one is `selected`; null when the key is not the list's. */
export function listboxKey(press: KeyPress, count: number, selected: number): ListboxKey | null {
  if (press.key === 'Escape') return { kind: 'dismiss' };
  if (count === 0) return null;
  if (press.key === 'ArrowDown' || press.key === 'ArrowUp') {
    const step = press.key === 'ArrowDown' ? 1 : -1;
    return { kind: 'move', index: (selected + step + count) % count };
  }
  const plain = !press.shiftKey && !press.altKey && !press.ctrlKey && !press.metaKey;
  if (plain && (press.key === 'Enter' || press.key === 'Tab')) return { kind: 'pick', by: press.key === 'Tab' ? 'tab' : 'enter' };
  return null;
}
