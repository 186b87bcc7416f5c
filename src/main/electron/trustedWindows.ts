// The windows main created, each one a client of the service. A sender is
// trusted only if it is the very WebContents object registered here.
import type { BrowserWindow, WebContents } from 'electron';
import { EVENT_IPC_PREFIX, type EventChannel, type EventPayload } from '../../shared/ipc';
import { clientId, type ClientId, type EventSink } from '../service/clients';

export interface ClientHost {
  attachClient(client: ClientId, emit: EventSink): void;
  detachClient(client: ClientId): void;
}

interface Entry {
  window: BrowserWindow;
  contents: WebContents;
  client: ClientId;
}

export class TrustedWindows {
  private readonly byContentsId = new Map<number, Entry>();

  constructor(private readonly host: ClientHost) {}

  /** Registers a new window and attaches it to the service until it closes. */
  track(window: BrowserWindow): ClientId {
    const contents = window.webContents;
    const client = clientId(`window-${contents.id}`);
    this.byContentsId.set(contents.id, { window, contents, client });
    this.host.attachClient(client, (event, payload) => {
      if (!contents.isDestroyed()) contents.send(`${EVENT_IPC_PREFIX}${event}`, payload);
    });
    window.on('closed', () => {
      this.byContentsId.delete(contents.id);
      this.host.detachClient(client);
    });
    return client;
  }

  clientFor(sender: WebContents): ClientId | undefined {
    const entry = this.byContentsId.get(sender.id);
    return entry && entry.contents === sender ? entry.client : undefined;
  }

  windowFor(client: ClientId): BrowserWindow | undefined {
    for (const entry of this.byContentsId.values()) if (entry.client === client) return entry.window;
    return undefined;
  }

  /** The client of a window (e.g. the focused one, for a menu command). */
  clientOfWindow(window: BrowserWindow | null | undefined): ClientId | undefined {
    if (!window) return undefined;
    for (const entry of this.byContentsId.values()) if (entry.window === window) return entry.client;
    return undefined;
  }

  /** Brings the client's window to the front, restoring it if minimised. */
  focus(client: ClientId): void {
    const window = this.windowFor(client);
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  /** Flashes the client's window in the taskbar until it is focused (the Dock icon bounces on macOS). */
  requestAttention(client: ClientId): void {
    const window = this.windowFor(client);
    if (!window || window.isDestroyed() || window.isFocused()) return;
    window.flashFrame(true);
    // Windows keeps flashing until told to stop.
    window.once('focus', () => window.flashFrame(false));
  }

  isFocused(client: ClientId): boolean {
    const window = this.windowFor(client);
    return window !== undefined && !window.isDestroyed() && window.isFocused();
  }

  setTitle(client: ClientId, title: string): void {
    const window = this.windowFor(client);
    if (window && !window.isDestroyed()) window.setTitle(title);
  }

  /** Sends an event to one window's page, through the same path as the service's events. */
  send<K extends EventChannel>(client: ClientId, event: K, payload: EventPayload<K>): void {
    const window = this.windowFor(client);
    if (window && !window.webContents.isDestroyed()) window.webContents.send(`${EVENT_IPC_PREFIX}${event}`, payload);
  }
}
