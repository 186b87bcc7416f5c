// A BrowserWindow stand-in for the window factory's unit tests: events on the
// window and its webContents are real EventEmitters, so a test fires
// `ready-to-show`, `did-finish-load` or `closed` as Electron would.
import { EventEmitter } from 'node:events';
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';

export class FakeBrowserWindow extends EventEmitter {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new EventEmitter();
  readonly loaded: string[] = [];
  showCount = 0;
  destroyed = false;
  /** What loadURL answers; a test may set a rejection. */
  static loadResult: () => Promise<void> = () => Promise.resolve();

  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return FakeBrowserWindow.loadResult();
  }
  show(): void {
    this.showCount += 1;
  }
  isVisible(): boolean {
    return this.showCount > 0;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }

  static reset(): void {
    FakeBrowserWindow.created = [];
    FakeBrowserWindow.loadResult = () => Promise.resolve();
  }
}

export const FakeWindowConstructor = FakeBrowserWindow as unknown as new (options: BrowserWindowConstructorOptions) => BrowserWindow;
