// The one window factory. Every window Mino opens is made here, so the
// security-relevant options have a single place to audit.
import type { BrowserWindow, BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import { errorText, log } from '../core/log/log';

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: 'Mino',
    width: 1100,
    height: 760,
    minWidth: 640,
    minHeight: 480,
    // Shown on ready-to-show, so the person never sees an unstyled flash.
    show: false,
    backgroundColor: '#f6f5f1',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

export type BrowserWindowConstructor = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

export interface WindowFactoryDeps {
  BrowserWindow: BrowserWindowConstructor;
  preloadPath: string;
  /** app://mino/index.html in production; the dev server's URL under `electron-vite dev`. */
  rendererUrl: string;
  /** Registers the window as trusted before its page can send anything. */
  onCreated(window: BrowserWindow): void;
}

export const SESSION_QUERY_PARAM = 'session';

/** The renderer's URL for a window that should open `sessionId` (it reads the query and asks the service). */
export function rendererUrlFor(rendererUrl: string, sessionId?: string): string {
  if (sessionId === undefined) return rendererUrl;
  const url = new URL(rendererUrl);
  url.searchParams.set(SESSION_QUERY_PARAM, sessionId);
  return url.href;
}

export interface NewWindowOptions {
  /** A session the new window should open. */
  sessionId?: string;
}

export interface NewWindow {
  window: BrowserWindow;
  /** Settles when the page has loaded; rejects when it could not be. */
  loaded: Promise<void>;
}

export function createWindowFactory(deps: WindowFactoryDeps): (options?: NewWindowOptions) => NewWindow {
  return function createWindow(options: NewWindowOptions = {}): NewWindow {
    const window = new deps.BrowserWindow(mainWindowOptions(deps.preloadPath));
    deps.onCreated(window);
    window.once('ready-to-show', () => window.show());
    const loaded = Promise.resolve(window.loadURL(rendererUrlFor(deps.rendererUrl, options.sessionId)));
    // Callers that do not wait for the page must not leave its failure unhandled.
    loaded.catch((error: unknown) => log.error('window.load_failed', { url: deps.rendererUrl, session: options.sessionId, error: errorText(error) }));
    return { window, loaded };
  };
}
