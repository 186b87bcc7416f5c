// Watches one name in a folder: calls `onChange` whenever the kernel reports
// something happened to it (written, replaced by a rename, removed, created).
// The folder is watched rather than the file, since an atomic write renames
// a new file over the name and a watch of the old file would never see it.
// What changed is for the caller to read; an event says only "look again".
import * as fs from 'node:fs';
import { errorText, log } from '../log/log';

/** Starts watching; returns the function that stops. A folder that cannot be watched is logged and left unwatched. */
export function watchEntry(dir: string, name: string, onChange: () => void): () => void {
  let watcher: fs.FSWatcher;
  try {
    // Not persistent: an open ask must not keep a CLI process alive.
    watcher = fs.watch(dir, { persistent: false }, (_event, filename) => {
      if (filename === null || filename === name) onChange();
    });
  } catch (error) {
    log.warn('watch.failed', { dir, error: errorText(error) });
    return () => {};
  }
  watcher.on('error', (error) => {
    log.warn('watch.failed', { dir, error: errorText(error) });
    watcher.close();
  });
  return () => watcher.close();
}
