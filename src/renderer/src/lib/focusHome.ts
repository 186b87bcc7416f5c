// Where the keyboard goes back to when what took it is gone: the composer of
// the session on screen. A dialog that closes, a stopped turn and a session
// that opens hand focus here, so a person can type on without reaching for the mouse.

let home: HTMLElement | null = null;

/** Makes `element` the focus home until the returned function is called. */
export function setFocusHome(element: HTMLElement): () => void {
  home = element;
  return () => {
    if (home === element) home = null;
  };
}

/** Focuses the focus home, if there is one on the page and no dialog is open; whether it did. */
export function focusHome(): boolean {
  if (!home?.isConnected || home.matches(':disabled') || document.querySelector('dialog[open]')) return false;
  home.focus();
  return document.activeElement === home;
}
