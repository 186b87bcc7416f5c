// Which colours the window uses: the Theme setting, and for `system` the
// operating system's light or dark preference. The result is `data-theme` on
// the root element; styles.css gives each theme its values of the colour
// variables, so no component knows about themes.
import type { Settings } from '../../../../shared/settings';
import { api } from '../../lib/api';

export type ThemeChoice = Settings['theme'];
export type Theme = 'light' | 'dark';

const SYSTEM_DARK = '(prefers-color-scheme: dark)';

export function resolveTheme(choice: ThemeChoice, systemIsDark: boolean): Theme {
  if (choice === 'system') return systemIsDark ? 'dark' : 'light';
  return choice;
}

/**
 * Applies the system's theme at once (so the first paint is right before the
 * settings arrive), then the stored choice, and follows both: a choice saved
 * in any window, and the system switching while the choice is `system`.
 * Returns a function that stops following.
 */
export function followTheme(root: HTMLElement = document.documentElement): () => void {
  const media = window.matchMedia(SYSTEM_DARK);
  let choice: ThemeChoice = 'system';
  const apply = () => {
    root.dataset.theme = resolveTheme(choice, media.matches);
  };
  const adopt = (settings: Settings) => {
    choice = settings.theme;
    apply();
  };
  apply();
  media.addEventListener('change', apply);
  let stop: () => void;
  try {
    stop = api.onSettingsChanged((view) => adopt(view.settings));
  } catch {
    // A page not connected to Mino keeps the system's theme; the window itself says it is not connected.
    return () => media.removeEventListener('change', apply);
  }
  // Unreadable settings keep the system's theme; the Settings dialog shows why they could not be read.
  api.getSettings().then((view) => adopt(view.settings), () => undefined);
  return () => {
    media.removeEventListener('change', apply);
    stop();
  };
}
