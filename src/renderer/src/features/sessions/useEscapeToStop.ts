// Escape stops the running turn from anywhere in the window, not only from
// the message box: after Send is clicked the keyboard is on a button that is
// then disabled (focus falls to the page), and a person reading the log may
// have clicked into it. A key something else took first (the @ suggestions,
// the narrow sidebar, a form) is left alone, and while a dialog is open its
// Escape is the dialog's (an ask's Escape denies).
import { useEffect, useRef } from 'react';

/** Whether a modal dialog is open: its Escape belongs to it. */
function dialogOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

export function useEscapeToStop(busy: boolean, stop: () => void): void {
  // The latest stop, read when the key comes: a listener attached once never holds a stale one.
  const latest = useRef(stop);
  latest.current = stop;
  useEffect(() => {
    if (!busy) return;
    const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing || dialogOpen()) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [busy]);
}
