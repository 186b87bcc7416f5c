// One Mino per person: a second launch (from a menu, a terminal, a file
// manager) hands over to the running one, which opens a new window, instead of
// running a second process on the same profile and ~/.mino.
import type { App } from 'electron';

/**
 * Takes the single-instance lock. Returns false in a second process, which
 * must quit at once; in the first, `openWindow` runs for each later launch.
 */
export function claimSingleInstance(app: Pick<App, 'requestSingleInstanceLock' | 'on' | 'whenReady'>, openWindow: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => {
    // A launch that arrives while the first is still starting waits for it.
    void app.whenReady().then(openWindow);
  });
  return true;
}
