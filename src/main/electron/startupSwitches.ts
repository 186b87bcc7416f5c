// What must be decided before Electron's `ready`: the GPU, and on Linux which
// keyring safeStorage asks. Pure apart from the calls it is handed.
import type { App, CommandLine } from 'electron';

/** `MINO_DISABLE_GPU=1` (or true/yes): for virtual machines and remote desktops where the GPU process fails. */
export function gpuDisabled(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes|on)$/i.test(env.MINO_DISABLE_GPU?.trim() ?? '');
}

/**
 * Desktops for which Chromium picks a real keyring by itself (GNOME, Unity,
 * Xfce, Cinnamon, Pantheon, Deepin and UKUI get libsecret; KDE gets KWallet),
 * matched as Chromium matches XDG_CURRENT_DESKTOP's entries. On any other
 * (Sway, i3, Hyprland, niri, ...) it falls back to a plain-text store, which
 * Mino refuses for the API key.
 */
const MAPPED_DESKTOPS = ['gnome', 'unity', 'xfce', 'x-cinnamon', 'cinnamon', 'pantheon', 'deepin', 'ukui', 'kde'];
const MAPPED_SESSIONS = ['gnome', 'kde', 'kde4', 'kde-plasma', 'xfce', 'xubuntu', 'ukui'];

export function desktopHasKeyring(env: NodeJS.ProcessEnv): boolean {
  const desktops = (env.XDG_CURRENT_DESKTOP ?? '').split(':').map((name) => name.trim().toLowerCase());
  if (desktops.some((name) => MAPPED_DESKTOPS.includes(name))) return true;
  if (MAPPED_SESSIONS.includes((env.DESKTOP_SESSION ?? '').trim().toLowerCase())) return true;
  return Boolean(env.GNOME_DESKTOP_SESSION_ID || env.KDE_FULL_SESSION);
}

/** The store Mino asks for where Chromium would pick none: the Secret Service (gnome-keyring, KeePassXC, KWallet). */
export const SECRET_SERVICE_STORE = 'gnome-libsecret';
export const PASSWORD_STORE_SWITCH = 'password-store';

export interface StartupSwitchDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  commandLine: Pick<CommandLine, 'hasSwitch' | 'appendSwitch'>;
  app: Pick<App, 'disableHardwareAcceleration'>;
}

/** What was switched, for the start-up log line. */
export interface StartupSwitches {
  gpuDisabled: boolean;
  /** The keyring Mino chose, or null when the person or Chromium chooses. */
  passwordStore: string | null;
}

export function applyStartupSwitches(deps: StartupSwitchDeps): StartupSwitches {
  const gpu = gpuDisabled(deps.env);
  if (gpu) deps.app.disableHardwareAcceleration();
  let passwordStore: string | null = null;
  // A store the person named (`npm start -- --password-store=kwallet6`) always wins.
  if (deps.platform === 'linux' && !deps.commandLine.hasSwitch(PASSWORD_STORE_SWITCH) && !desktopHasKeyring(deps.env)) {
    deps.commandLine.appendSwitch(PASSWORD_STORE_SWITCH, SECRET_SERVICE_STORE);
    passwordStore = SECRET_SERVICE_STORE;
  }
  return { gpuDisabled: gpu, passwordStore };
}
