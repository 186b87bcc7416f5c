// What main decides around start-up, without Electron: switches set before
// `ready` (GPU, keyring), one process per person, the window theme, where the
// folder dialog opens, and asking for attention.
import { EventEmitter } from 'node:events';
import type { App, BrowserWindow, Dialog, NativeTheme } from 'electron';
import { describe, expect, it } from 'vitest';
import { createFolderPicker } from '../../../src/main/electron/dialogs';
import { claimSingleInstance } from '../../../src/main/electron/singleInstance';
import { applyStartupSwitches, desktopHasKeyring, gpuDisabled, SECRET_SERVICE_STORE } from '../../../src/main/electron/startupSwitches';
import { createWindowTheme, WINDOW_BACKGROUND } from '../../../src/main/electron/theme';
import { TrustedWindows } from '../../../src/main/electron/trustedWindows';
import { clientId } from '../../../src/main/service/clients';
import { themeVariables } from '../../support/cssTheme';

function switchesFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, given: Record<string, string> = {}) {
  const switches = new Map(Object.entries(given));
  const calls: string[] = [];
  const result = applyStartupSwitches({
    platform,
    env,
    commandLine: { hasSwitch: (name) => switches.has(name), appendSwitch: (name, value) => void switches.set(name, value ?? '') },
    app: { disableHardwareAcceleration: () => void calls.push('disableHardwareAcceleration') },
  });
  return { switches, calls, result };
}

describe('start-up switches', () => {
  it('turns the GPU off for MINO_DISABLE_GPU=1, true or yes, and not otherwise', () => {
    for (const value of ['1', 'true', 'YES', ' on ']) expect(gpuDisabled({ MINO_DISABLE_GPU: value })).toBe(true);
    for (const value of [undefined, '', '0', 'false', 'no']) expect(gpuDisabled({ MINO_DISABLE_GPU: value })).toBe(false);
    expect(switchesFor('linux', { MINO_DISABLE_GPU: '1', XDG_CURRENT_DESKTOP: 'GNOME' }).calls).toEqual(['disableHardwareAcceleration']);
    expect(switchesFor('darwin', {}).calls).toEqual([]);
  });

  it.each(['sway', 'i3', 'Hyprland', 'niri', 'river', ''])('asks the Secret Service for keys on %s, where Electron would store them in plain text', (desktop) => {
    const { switches, result } = switchesFor('linux', { XDG_CURRENT_DESKTOP: desktop });
    expect(switches.get('password-store')).toBe(SECRET_SERVICE_STORE);
    expect(result.passwordStore).toBe('gnome-libsecret');
  });

  it.each(['GNOME', 'ubuntu:GNOME', 'KDE', 'XFCE', 'X-Cinnamon', 'Unity', 'Pantheon', 'Deepin', 'UKUI'])('leaves the keyring to Electron on %s, which it maps itself', (desktop) => {
    expect(desktopHasKeyring({ XDG_CURRENT_DESKTOP: desktop })).toBe(true);
    expect(switchesFor('linux', { XDG_CURRENT_DESKTOP: desktop }).switches.has('password-store')).toBe(false);
  });

  it('never overrides a store the person chose, and sets none off Linux', () => {
    const chosen = switchesFor('linux', { XDG_CURRENT_DESKTOP: 'sway' }, { 'password-store': 'kwallet6' });
    expect(chosen.switches.get('password-store')).toBe('kwallet6');
    expect(chosen.result.passwordStore).toBeNull();
    expect(switchesFor('darwin', { XDG_CURRENT_DESKTOP: 'sway' }).switches.size).toBe(0);
    expect(switchesFor('win32', {}).switches.size).toBe(0);
  });

  it('recognises a mapped desktop by DESKTOP_SESSION when XDG_CURRENT_DESKTOP is unset', () => {
    expect(desktopHasKeyring({ DESKTOP_SESSION: 'xubuntu' })).toBe(true);
    expect(desktopHasKeyring({ DESKTOP_SESSION: 'sway' })).toBe(false);
  });
});

describe('one process per person', () => {
  function fakeApp(gotLock: boolean) {
    const app = new EventEmitter() as EventEmitter & Pick<App, 'requestSingleInstanceLock' | 'whenReady'>;
    app.requestSingleInstanceLock = () => gotLock;
    app.whenReady = () => Promise.resolve();
    return app;
  }

  it('tells a second process to quit', () => {
    let opened = 0;
    expect(claimSingleInstance(fakeApp(false) as never, () => opened++)).toBe(false);
    expect(opened).toBe(0);
  });

  it('opens a window in the first process for each later launch', async () => {
    const app = fakeApp(true);
    let opened = 0;
    expect(claimSingleInstance(app as never, () => opened++)).toBe(true);
    app.emit('second-instance', {}, ['electron', '.'], '/home/ada');
    app.emit('second-instance', {}, ['electron', '.'], '/home/ada');
    await new Promise((resolve) => setImmediate(resolve));
    expect(opened).toBe(2);
  });
});

describe('the window theme', () => {
  function setup(systemDark: boolean) {
    const nativeTheme = new EventEmitter() as EventEmitter & { themeSource: string; shouldUseDarkColors: boolean };
    nativeTheme.themeSource = 'system';
    Object.defineProperty(nativeTheme, 'shouldUseDarkColors', {
      get: () => (nativeTheme.themeSource === 'system' ? systemDark : nativeTheme.themeSource === 'dark'),
    });
    const painted: string[] = [];
    const window = { setBackgroundColor: (colour: string) => painted.push(colour), isDestroyed: () => false };
    const theme = createWindowTheme({ nativeTheme: nativeTheme as unknown as NativeTheme, windows: () => [window] });
    return { theme, nativeTheme, painted, setSystemDark: (dark: boolean) => ((systemDark = dark), nativeTheme.emit('updated')) };
  }

  it("uses the page's own background colour in each theme", () => {
    const variables = themeVariables();
    expect(WINDOW_BACKGROUND.light).toBe(variables.light.get('--bg'));
    expect(WINDOW_BACKGROUND.dark).toBe(variables.dark.get('--bg'));
  });

  it('follows the Theme setting, and the system only while the setting is system', () => {
    const { theme, nativeTheme, painted, setSystemDark } = setup(false);
    expect(theme.background()).toBe(WINDOW_BACKGROUND.light);
    theme.follow('dark');
    expect(nativeTheme.themeSource).toBe('dark');
    expect(painted.at(-1)).toBe(WINDOW_BACKGROUND.dark);
    expect(theme.background()).toBe(WINDOW_BACKGROUND.dark);
    setSystemDark(false);
    expect(painted.at(-1)).toBe(WINDOW_BACKGROUND.dark);
    theme.follow('system');
    expect(painted.at(-1)).toBe(WINDOW_BACKGROUND.light);
    setSystemDark(true);
    expect(painted.at(-1)).toBe(WINDOW_BACKGROUND.dark);
  });
});

describe('the folder dialog', () => {
  it('opens where the last project is, and where the system chooses when there is none', async () => {
    const shown: Array<Record<string, unknown>> = [];
    const dialog = {
      showOpenDialog: async (...args: unknown[]) => {
        shown.push(args.at(-1) as Record<string, unknown>);
        return { canceled: true, filePaths: [] };
      },
    } as unknown as Pick<Dialog, 'showOpenDialog'>;
    let last: string | undefined = '/home/ada/work/app';
    const pick = createFolderPicker(dialog, () => undefined, async () => last);
    expect(await pick(clientId('w'))).toBeNull();
    last = undefined;
    await pick(clientId('w'));
    expect(shown[0]).toMatchObject({ defaultPath: '/home/ada/work/app', properties: ['openDirectory'] });
    expect(shown[1]).not.toHaveProperty('defaultPath');
  });
});

describe('asking for attention', () => {
  function trackedWindow(focused: boolean) {
    const window = new EventEmitter() as EventEmitter & Record<string, unknown>;
    const flashes: boolean[] = [];
    Object.assign(window, {
      webContents: { id: 1, isDestroyed: () => false },
      isDestroyed: () => false,
      isFocused: () => focused,
      flashFrame: (flag: boolean) => flashes.push(flag),
    });
    const windows = new TrustedWindows({ attachClient: () => undefined, detachClient: () => undefined });
    const client = windows.track(window as unknown as BrowserWindow);
    return { windows, window, client, flashes };
  }

  it('flashes a window in the background until it is focused', () => {
    const { windows, window, client, flashes } = trackedWindow(false);
    windows.requestAttention(client);
    expect(flashes).toEqual([true]);
    window.emit('focus');
    expect(flashes).toEqual([true, false]);
  });

  it('leaves a focused window alone', () => {
    const { windows, client, flashes } = trackedWindow(true);
    windows.requestAttention(client);
    expect(flashes).toEqual([]);
  });
});
