// The one window factory. Every window Mino opens is made here, so the
// security-relevant options have a single place to audit.
import type { BrowserWindow, BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import { errorText, log } from '../core/log/log';
import { MIN_WINDOW } from '../../shared/windowSize';
import { WINDOW_BACKGROUND } from './theme';

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

export function mainWindowOptions(preloadPath: string, backgroundColor: string = WINDOW_BACKGROUND.light): BrowserWindowConstructorOptions {
  return {
    title: 'Mino',
    width: 1100,
    height: 760,
    // No smaller than the layout is made and tested for, so nothing overlaps at any size the window allows.
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    // Shown once painted (see showOnce), so the person never sees an unstyled flash.
    show: false,
    // The theme's page colour, so nothing light flashes behind a dark window while it loads.
    backgroundColor,
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
  /** The colour behind the page while it loads (the theme's); light when absent. */
  backgroundColor?(): string;
}

/**
 * How long a window may stay hidden waiting to be painted. Under native Wayland
 * (Electron's default since 38) `ready-to-show` often never fires (Electron
 * #48859), so a window would never appear without this.
 */
export const SHOW_FALLBACK_MS = 3_000;

type ShowableWindow = Pick<BrowserWindow, 'once' | 'show' | 'isDestroyed' | 'isVisible'> & { webContents: Pick<BrowserWindow['webContents'], 'once'> };

/**
 * Shows the window once: on `ready-to-show` (painted, no flash), or when its
 * page has loaded, or after SHOW_FALLBACK_MS, whichever comes first.
 */
export function showOnce(window: ShowableWindow): void {
  let shown = false;
  const timer = setTimeout(() => show('timer'), SHOW_FALLBACK_MS);
  function show(cause: string): void {
    if (shown) return;
    shown = true;
    clearTimeout(timer);
    if (window.isDestroyed() || window.isVisible()) return;
    if (cause !== 'ready-to-show') log.info('window.shown_without_ready_to_show', { cause });
    window.show();
  }
  window.once('ready-to-show', () => show('ready-to-show'));
  window.webContents.once('did-finish-load', () => show('did-finish-load'));
  window.once('closed', () => {
    shown = true;
    clearTimeout(timer);
  });
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
    const window = new deps.BrowserWindow(mainWindowOptions(deps.preloadPath, deps.backgroundColor?.()));
    deps.onCreated(window);
    showOnce(window);
    const loaded = Promise.resolve(window.loadURL(rendererUrlFor(deps.rendererUrl, options.sessionId)));
    // Callers that do not wait for the page must not leave its failure unhandled.
    loaded.catch((error: unknown) => log.error('window.load_failed', { url: deps.rendererUrl, session: options.sessionId, error: errorText(error) }));
    return { window, loaded };
  };
}
