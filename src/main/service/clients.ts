// A client is one renderer: a window in the app, a socket in the test bridge.
// Per-client state (the open project, its session) is keyed by the
// transport's own idea of who is calling, never by anything in a payload.
import type { SessionId } from '../../shared/domain';
import type { EventChannel, EventPayload, Project } from '../../shared/ipc';

export type ClientId = string & { readonly __brand: 'ClientId' };

export function clientId(value: string): ClientId {
  return value as ClientId;
}

/** Delivers one event to one client's renderer. */
export type EventSink = <K extends EventChannel>(event: K, payload: EventPayload<K>) => void;

export interface ClientState {
  project: Project | null;
  /** The one session this client owns, if any. */
  session: SessionId | null;
}

interface Client {
  emit: EventSink;
  state: ClientState;
}

export const NOT_CONNECTED_MESSAGE = 'This window is not connected to Mino any more. Close it and open a new one.';

export class ClientRegistry {
  private readonly clients = new Map<ClientId, Client>();

  attach(id: ClientId, emit: EventSink): void {
    if (this.clients.has(id)) throw new Error(`Client ${id} is already attached.`);
    this.clients.set(id, { emit, state: { project: null, session: null } });
  }

  /** Forgets the client and returns its last state (undefined if it was not attached). */
  detach(id: ClientId): ClientState | undefined {
    const client = this.clients.get(id);
    this.clients.delete(id);
    return client?.state;
  }

  has(id: ClientId): boolean {
    return this.clients.has(id);
  }

  /** The client's state; throws for a client that is not attached, which no transport should let through. */
  state(id: ClientId): ClientState {
    const client = this.clients.get(id);
    if (!client) throw new Error(NOT_CONNECTED_MESSAGE);
    return client.state;
  }

  /** Sends to one client; a client that has gone meanwhile is skipped. */
  emitTo<K extends EventChannel>(id: ClientId, event: K, payload: EventPayload<K>): void {
    this.clients.get(id)?.emit(event, payload);
  }

  broadcast<K extends EventChannel>(event: K, payload: EventPayload<K>): void {
    for (const client of this.clients.values()) client.emit(event, payload);
  }
}
