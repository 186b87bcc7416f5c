// The windows' own colours follow the Theme setting: Electron's nativeTheme
// takes the choice (so the system's light or dark applies only for `system`),
// and every window's background, seen while a page loads or repaints, is the
// page's own background colour for the theme in force.
import type { BrowserWindow, NativeTheme } from 'electron';
import type { Settings } from '../../shared/settings';

/** The renderer's `--bg` in each theme (styles.css); a test keeps the two equal. */
export const WINDOW_BACKGROUND = { light: '#f6f5f1', dark: '#15171b' } as const;

export interface WindowThemeDeps {
  nativeTheme: Pick<NativeTheme, 'themeSource' | 'shouldUseDarkColors' | 'on'>;
  windows(): Array<Pick<BrowserWindow, 'setBackgroundColor' | 'isDestroyed'>>;
}

export interface WindowTheme {
  /** The background a new window should start with. */
  background(): string;
  /** Applies a Theme setting (at start, and whenever it is saved). */
  follow(choice: Settings['theme']): void;
}

export function createWindowTheme(deps: WindowThemeDeps): WindowTheme {
  const background = () => WINDOW_BACKGROUND[deps.nativeTheme.shouldUseDarkColors ? 'dark' : 'light'];
  const repaint = () => {
    for (const window of deps.windows()) if (!window.isDestroyed()) window.setBackgroundColor(background());
  };
  // The system switching between light and dark while the choice is `system`.
  deps.nativeTheme.on('updated', repaint);
  return {
    background,
    follow(choice) {
      deps.nativeTheme.themeSource = choice;
      repaint();
    },
  };
}
