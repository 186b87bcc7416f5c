// A recording stand-in for the `electron` module, for running the built main
// and preload bundles in plain Node. It implements only what Mino calls, and
// records every call in one ordered list, so a test can tell what happened
// before and after `ready`. Anything else it is asked for throws, naming it.
import { EventEmitter } from 'node:events';

export interface Recorded {
  what: string;
  args: unknown[];
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  /** The permission handlers main installed, to ask them as Chromium would. */
  readonly permissions: { request?: (...args: unknown[]) => void; check?: (...args: unknown[]) => boolean; device?: (...args: unknown[]) => boolean } = {};
  readonly session = {
    setPermissionRequestHandler: (handler: (...args: unknown[]) => void) => void (this.permissions.request = handler),
    setPermissionCheckHandler: (handler: (...args: unknown[]) => boolean) => void (this.permissions.check = handler),
    setDevicePermissionHandler: (handler: (...args: unknown[]) => boolean) => void (this.permissions.device = handler),
  };
  destroyed = false;
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(): void {}
}

export interface FakeWindow extends EventEmitter {
  readonly options: Record<string, unknown>;
  readonly webContents: FakeWebContents;
  readonly loadedUrls: string[];
  readonly backgrounds: string[];
  visible: boolean;
  destroyed: boolean;
}

export interface FakeElectronMain {
  module: object;
  control: { folderToPick: string | undefined; onQuit: (() => void) | undefined; singleInstanceLock: boolean; systemDark: boolean };
  nativeTheme: EventEmitter & { themeSource: string; readonly shouldUseDarkColors: boolean };
  /** The options of every folder dialog shown. */
  folderDialogs: Array<Record<string, unknown>>;
  calls: Recorded[];
  windows: FakeWindow[];
  handlers: Map<string, (event: unknown, ...args: unknown[]) => unknown>;
  app: EventEmitter;
  readonly protocolHandler: ((request: Request) => Promise<Response>) | undefined;
  emitReady(): void;
}

export function fakeElectronMain(): FakeElectronMain {
  const calls: Recorded[] = [];
  const record = (what: string, ...args: unknown[]) => calls.push({ what, args });
  const app = new EventEmitter() as EventEmitter & Record<string, unknown>;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const windows: FakeBrowserWindow[] = [];
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  let protocolHandler: ((request: Request) => Promise<Response>) | undefined;
  const control = {
    /** The folder the next "Open project" dialog returns; none means the person cancels. */
    folderToPick: undefined as string | undefined,
    /** Runs inside app.quit(), to see what was already done when it was called. */
    onQuit: undefined as (() => void) | undefined,
    /** What requestSingleInstanceLock answers: false plays a second launch. */
    singleInstanceLock: true,
    /** The system's own light or dark, for nativeTheme. */
    systemDark: false,
  };
  const folderDialogs: Array<Record<string, unknown>> = [];
  const nativeTheme = Object.assign(new EventEmitter(), { themeSource: 'system' });
  Object.defineProperty(nativeTheme, 'shouldUseDarkColors', {
    get: () => (nativeTheme.themeSource === 'system' ? control.systemDark : nativeTheme.themeSource === 'dark'),
  });

  class FakeBrowserWindow extends EventEmitter {
    static getAllWindows = () => windows.filter((window) => !window.destroyed);
    static getFocusedWindow = () => null;
    readonly webContents = new FakeWebContents();
    readonly loadedUrls: string[] = [];
    readonly backgrounds: string[] = [];
    destroyed = false;
    visible = false;
    title = '';
    constructor(readonly options: Record<string, unknown>) {
      super();
      record('BrowserWindow', options);
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url: string): Promise<void> {
      this.loadedUrls.push(url);
      return Promise.resolve();
    }
    show(): void {
      this.visible = true;
    }
    isVisible(): boolean {
      return this.visible;
    }
    setBackgroundColor(colour: string): void {
      this.backgrounds.push(colour);
    }
    flashFrame(flag: boolean): void {
      record('BrowserWindow.flashFrame', flag);
    }
    focus(): void {}
    isDestroyed(): boolean {
      return this.destroyed;
    }
    isFocused(): boolean {
      return false;
    }
    isMinimized(): boolean {
      return false;
    }
    getTitle(): string {
      return this.title;
    }
    setTitle(title: string): void {
      this.title = title;
    }
  }

  Object.assign(app, {
    isPackaged: true,
    enableSandbox: () => record('app.enableSandbox'),
    whenReady: () => ready,
    getVersion: () => '0.0.0-wiring',
    quit: () => {
      record('app.quit');
      control.onQuit?.();
    },
    exit: (code: number) => record('app.exit', code),
    requestSingleInstanceLock: () => {
      record('app.requestSingleInstanceLock');
      return control.singleInstanceLock;
    },
    disableHardwareAcceleration: () => record('app.disableHardwareAcceleration'),
    commandLine: {
      switches: new Map<string, string>(),
      hasSwitch(name: string) {
        return this.switches.has(name);
      },
      appendSwitch(name: string, value?: string) {
        record('app.commandLine.appendSwitch', name, value);
        this.switches.set(name, value ?? '');
      },
    },
  });

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown) => record('protocol.registerSchemesAsPrivileged', schemes),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
        record('protocol.handle', scheme);
        protocolHandler = handler;
      },
    },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
        record('ipcMain.handle', channel);
        handlers.set(channel, handler);
      },
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    dialog: {
      showErrorBox: (title: string, content: string) => record('dialog.showErrorBox', title, content),
      showOpenDialog: async (...args: unknown[]) => {
        folderDialogs.push(args.at(-1) as Record<string, unknown>);
        return control.folderToPick ? { canceled: false, filePaths: [control.folderToPick] } : { canceled: true, filePaths: [] };
      },
    },
    Menu: {
      buildFromTemplate: (template: unknown) => ({ template }),
      setApplicationMenu: (menu: unknown) => record('Menu.setApplicationMenu', menu),
    },
    Notification: Object.assign(function Notification() {}, { isSupported: () => false }),
    // Chromium's network stack stands in as Node's fetch: the model requests' transport (electron/netFetch.ts).
    net: { fetch: (input: string | Request, init?: RequestInit) => globalThis.fetch(input, init) },
    nativeTheme,
    safeStorage: {
      isEncryptionAvailable: () => false,
      getSelectedStorageBackend: () => 'basic_text',
      encryptString: () => {
        throw new Error('no keyring in the fake');
      },
      decryptString: () => {
        throw new Error('no keyring in the fake');
      },
    },
    shell: { openExternal: async () => undefined },
  };

  return {
    module: strict(electron, 'electron'),
    control,
    nativeTheme: nativeTheme as EventEmitter & { themeSource: string; readonly shouldUseDarkColors: boolean },
    folderDialogs,
    calls,
    windows,
    handlers,
    app,
    get protocolHandler() {
      return protocolHandler;
    },
    emitReady(): void {
      record('ready');
      markReady();
      app.emit('ready');
    },
  };
}

/** Stands for a File dropped on the window: Electron's webUtils knows where it is on disk. */
export class FakeDroppedFile {
  constructor(readonly where: string) {}
}

export function fakeElectronPreload() {
  const exposed = new Map<string, unknown>();
  const pathLookups: unknown[] = [];
  const invoked: Array<{ channel: string; args: unknown[] }> = [];
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const electron = {
    contextBridge: {
      exposeInMainWorld: (name: string, api: unknown) => exposed.set(name, api),
    },
    // Like Electron's: a path for a real dropped File, a TypeError for anything else.
    webUtils: {
      getPathForFile: (file: unknown) => {
        pathLookups.push(file);
        if (file instanceof FakeDroppedFile) return file.where;
        throw new TypeError('Error processing argument at index 0, conversion failure from #<Object>');
      },
    },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => {
        invoked.push({ channel, args });
        return Promise.resolve({ ok: true, value: null });
      },
      on: (channel: string, listener: (...args: unknown[]) => void) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel)!.add(listener);
      },
      removeListener: (channel: string, listener: (...args: unknown[]) => void) => {
        listeners.get(channel)?.delete(listener);
      },
    },
  };
  return {
    module: strict(electron, 'electron'),
    exposed,
    invoked,
    pathLookups,
    listeners,
    /** Delivers a message the way ipcRenderer does: the transport event first, then the payload. */
    deliver(channel: string, event: unknown, payload: unknown): number {
      const set = listeners.get(channel) ?? new Set();
      for (const listener of set) listener(event, payload);
      return set.size;
    },
  };
}

// A member the fake lacks is a test to extend, not an undefined to run on.
function strict<T extends object>(target: T, path: string): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol' || key in object || key === 'then' || key === '__esModule') return Reflect.get(object, key, receiver) as unknown;
      throw new Error(`The fake ${path} has no ${String(key)}; the built code used it.`);
    },
  });
}
