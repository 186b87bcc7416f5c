import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { createWindowFactory, mainWindowOptions, secureWebPreferences } from '../../../src/main/electron/windows';

describe('the window factory', () => {
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

  it('builds every window from those options, trusts it before loading, and shows it when ready', () => {
    const events: string[] = [];
    let options: BrowserWindowConstructorOptions | undefined;
    let readyToShow: (() => void) | undefined;
    class FakeWindow {
      constructor(given: BrowserWindowConstructorOptions) {
        options = given;
      }
      once(event: string, listener: () => void) {
        if (event === 'ready-to-show') readyToShow = listener;
      }
      show() {
        events.push('show');
      }
      loadURL(url: string) {
        events.push(`load ${url}`);
        return Promise.resolve();
      }
    }
    const createWindow = createWindowFactory({
      BrowserWindow: FakeWindow as unknown as new (options: BrowserWindowConstructorOptions) => BrowserWindow,
      preloadPath: '/out/preload/index.js',
      rendererUrl: 'app://mino/index.html',
      onCreated: () => events.push('trusted'),
    });
    createWindow();
    expect(options).toEqual(mainWindowOptions('/out/preload/index.js'));
    expect(options?.show).toBe(false);
    expect(events).toEqual(['trusted', 'load app://mino/index.html']);
    readyToShow?.();
    expect(events.at(-1)).toBe('show');
  });

  it('reports a page that could not load to a caller that waits, without an unhandled rejection for one that does not', async () => {
    class FailingWindow {
      once() {}
      show() {}
      loadURL() {
        return Promise.reject(new Error('ERR_FILE_NOT_FOUND'));
      }
    }
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const createWindow = createWindowFactory({
        BrowserWindow: FailingWindow as unknown as new (options: BrowserWindowConstructorOptions) => BrowserWindow,
        preloadPath: '/p.js',
        rendererUrl: 'app://mino/index.html',
        onCreated: () => undefined,
      });
      createWindow();
      await expect(createWindow({ sessionId: '0123456789abcdef0123456789abcdef' }).loaded).rejects.toThrow('ERR_FILE_NOT_FOUND');
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
