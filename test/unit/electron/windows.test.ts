import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WINDOW_BACKGROUND } from '../../../src/main/electron/theme';
import { createWindowFactory, mainWindowOptions, secureWebPreferences, SHOW_FALLBACK_MS } from '../../../src/main/electron/windows';
import { FakeBrowserWindow, FakeWindowConstructor } from '../../support/electron/fakeBrowserWindow';
import { MIN_WINDOW } from '../../../src/shared/windowSize';

describe('the window factory', () => {
  beforeEach(() => FakeBrowserWindow.reset());
  afterEach(() => vi.useRealTimers());

  function factory(events: string[] = [], backgroundColor?: () => string) {
    return createWindowFactory({
      BrowserWindow: FakeWindowConstructor,
      preloadPath: '/out/preload/index.js',
      rendererUrl: 'app://mino/index.html',
      onCreated: () => events.push('trusted'),
      ...(backgroundColor ? { backgroundColor } : {}),
    });
  }

  it('makes sandboxed, isolated windows without Node, experimental or Blink features, or spellcheck', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.js');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.js',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
    });
    expect(prefs.enableBlinkFeatures).toBeUndefined();
    expect(mainWindowOptions('/p.js').webPreferences).toEqual(secureWebPreferences('/p.js'));
  });

  it('cannot be made smaller than the 800x600 the layout is tested from', () => {
    expect(mainWindowOptions('/p.js')).toMatchObject({ minWidth: 800, minHeight: 600 });
    expect(MIN_WINDOW).toEqual({ width: 800, height: 600 });
  });

  it('builds every window from those options, trusts it before loading, and shows it when ready', () => {
    const events: string[] = [];
    factory(events)();
    const [window] = FakeBrowserWindow.created;
    expect(window?.options).toEqual(mainWindowOptions('/out/preload/index.js'));
    expect(window?.options.show).toBe(false);
    expect(events).toEqual(['trusted']);
    expect(window?.loaded).toEqual(['app://mino/index.html']);
    window?.emit('ready-to-show');
    expect(window?.showCount).toBe(1);
  });

  it("starts each window on the theme's background", () => {
    let dark = false;
    const createWindow = factory([], () => WINDOW_BACKGROUND[dark ? 'dark' : 'light']);
    createWindow();
    dark = true;
    createWindow();
    expect(FakeBrowserWindow.created.map((window) => window.options.backgroundColor)).toEqual([WINDOW_BACKGROUND.light, WINDOW_BACKGROUND.dark]);
  });

  it('shows a window whose ready-to-show never comes (Wayland) once its page has loaded, and only once', () => {
    factory()();
    const [window] = FakeBrowserWindow.created;
    expect(window?.showCount).toBe(0);
    window?.webContents.emit('did-finish-load');
    expect(window?.showCount).toBe(1);
    window?.emit('ready-to-show');
    window?.webContents.emit('did-finish-load');
    expect(window?.showCount).toBe(1);
  });

  it('shows a window after SHOW_FALLBACK_MS when neither event comes, and never twice', () => {
    vi.useFakeTimers();
    factory()();
    const [window] = FakeBrowserWindow.created;
    vi.advanceTimersByTime(SHOW_FALLBACK_MS - 1);
    expect(window?.showCount).toBe(0);
    vi.advanceTimersByTime(1);
    expect(window?.showCount).toBe(1);
    window?.emit('ready-to-show');
    expect(window?.showCount).toBe(1);
  });

  it('drops the fallback timer once shown or closed', () => {
    vi.useFakeTimers();
    const createWindow = factory();
    createWindow();
    createWindow();
    const [shown, closed] = FakeBrowserWindow.created;
    shown?.emit('ready-to-show');
    closed?.close();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(SHOW_FALLBACK_MS);
    expect(shown?.showCount).toBe(1);
    expect(closed?.showCount).toBe(0);
  });

  it('reports a page that could not load to a caller that waits, without an unhandled rejection for one that does not', async () => {
    FakeBrowserWindow.loadResult = () => Promise.reject(new Error('ERR_FILE_NOT_FOUND'));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const createWindow = factory();
      createWindow();
      await expect(createWindow({ sessionId: '0123456789abcdef0123456789abcdef' }).loaded).rejects.toThrow('ERR_FILE_NOT_FOUND');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
