// Unified or side-by-side: one choice for every diff in the window, kept in
// the renderer's localStorage so it survives a reload and a new window of the
// same app. Nothing of it reaches main; a value that is not one of the two is
// read as unified.
import { useSyncExternalStore } from 'react';

export type DiffLayout = 'unified' | 'split';

export const DIFF_LAYOUT_KEY = 'mino.diffLayout';

const listeners = new Set<() => void>();

function read(): DiffLayout {
  try {
    return globalThis.localStorage?.getItem(DIFF_LAYOUT_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    // Storage refused (a privacy setting): the default, every time.
    return 'unified';
  }
}

export function setDiffLayout(layout: DiffLayout): void {
  try {
    globalThis.localStorage?.setItem(DIFF_LAYOUT_KEY, layout);
  } catch {
    // ignore: storage refused (a privacy setting): the choice is not kept, but still applies until the window closes
    memory = layout;
  }
  for (const listener of listeners) listener();
}

let memory: DiffLayout | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another window of the app changed it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === DIFF_LAYOUT_KEY) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

export function useDiffLayout(): DiffLayout {
  return useSyncExternalStore(subscribe, () => memory ?? read());
}
