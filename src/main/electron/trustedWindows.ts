// The windows main created, each one a client of the service. A sender is
// trusted only if it is the very WebContents object registered here.
import type { BrowserWindow, WebContents } from 'electron';
import { EVENT_IPC_PREFIX } from '../../shared/ipc';
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
}
