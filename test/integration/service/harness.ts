// A real MinoService in a real temp HOME with a real project, pointed at the
// loopback mock model service. Clients are plain event collectors, the way a
// window or a socket would receive events; the folder dialog and the window
// system are the only stand-ins.
import * as path from 'node:path';
import { clientId, type ClientId } from '../../../src/main/service/clients';
import { dispatchInvoke } from '../../../src/main/service/dispatch';
import { MinoService } from '../../../src/main/service/minoService';
import type { ClientContext, NativeConfirm } from '../../../src/main/service/ports';
import type { SessionId } from '../../../src/shared/domain';
import type { EventChannel, EventPayload, IpcResult } from '../../../src/shared/ipc';
import type { ModeChangeResult, SessionView, TurnEvent } from '../../../src/shared/sessions';
import { FakeFolderPicker } from '../../support/bridge/fakeFolderPicker';
import { FakeNativeConfirm } from '../../support/bridge/fakeNativeConfirm';
import { MemorySecretStore } from '../../support/bridge/memorySecretStore';
import { makeTempHome } from '../../support/tempHome';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';

export const GREET = 'package main\n\nconst greeting = "hi"\n';

export interface Received {
  event: EventChannel;
  payload: unknown;
}

export class FakeClient {
  readonly received: Received[] = [];
  private waiters: Array<{ match(entry: Received): boolean; resolve(entry: Received): void }> = [];

  constructor(
    readonly id: ClientId,
    private readonly service: MinoService,
    /** Main's own yes/no dialog, as the person answers it; absent where the harness was given another. */
    readonly native?: FakeNativeConfirm,
  ) {
    service.attachClient(id, (event, payload) => {
      const entry = { event, payload };
      this.received.push(entry);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(entry)) {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.resolve(entry);
        }
      }
    });
  }

  call(channel: string, input?: unknown): Promise<IpcResult<unknown>> {
    return dispatchInvoke(this.service, this.id, channel, input);
  }

  /** The value of a call that must succeed. */
  async value<T = unknown>(channel: string, input?: unknown): Promise<T> {
    const result = await this.call(channel, input);
    if (!result.ok) throw new Error(`${channel} failed: ${result.error}`);
    return result.value as T;
  }

  of<K extends EventChannel>(event: K): EventPayload<K>[] {
    return this.received.filter((entry) => entry.event === event).map((entry) => entry.payload as EventPayload<K>);
  }

  turnEvents(): TurnEvent[] {
    return this.of('session:event').map((payload) => payload.event);
  }

  /** Resolves with the first event (already received or still to come, counting from `from`) that matches. */
  next<K extends EventChannel>(event: K, predicate: (payload: EventPayload<K>) => boolean = () => true, from = 0): Promise<EventPayload<K>> {
    const match = (entry: Received) => entry.event === event && predicate(entry.payload as EventPayload<K>);
    const seen = this.received.slice(from).find(match);
    if (seen) return Promise.resolve(seen.payload as EventPayload<K>);
    return new Promise((resolve) => this.waiters.push({ match, resolve: (entry) => resolve(entry.payload as EventPayload<K>) }));
  }

  nextTurnEvent<T extends TurnEvent['type']>(type: T, from = 0): Promise<Extract<TurnEvent, { type: T }>> {
    return this.next('session:event', (payload) => payload.event.type === type, from).then((payload) => payload.event as Extract<TurnEvent, { type: T }>);
  }

  /** The turn ended and the window was told the session is idle again. */
  async turnFinished(from = 0): Promise<{ end: Extract<TurnEvent, { type: 'turn_end' }>; view: SessionView }> {
    const end = await this.nextTurnEvent('turn_end', from);
    const view = await this.next('session:changed', (v) => !v.busy, from);
    return { end, view };
  }
}

export interface ServiceHarness {
  root: string;
  home: string;
  project: string;
  server: MockResponsesServer;
  env: NodeJS.ProcessEnv;
  picker: FakeFolderPicker;
  /** Main's own yes/no dialog (Cancel until a test says otherwise), unless the options gave another. */
  native: FakeNativeConfirm;
  service: MinoService;
  /** Session windows the service asked for, in order. */
  openedWindows: SessionId[];
  focused: ClientId[];
  notifications: Array<{ client: ClientId; sessionId: SessionId; toolName: string }>;
  contexts: Array<{ client: ClientId; context: ClientContext }>;
  /** URLs handed to the system browser (the openExternal port). */
  openedLinks: string[];
  /** A new service on the same home (an app restart); closed with the harness. */
  restart(): MinoService;
  connect(name: string, service?: MinoService): FakeClient;
  /** A connected client with the project open and a new session of its own. */
  clientWithSession(name: string, service?: MinoService): Promise<{ client: FakeClient; session: SessionView }>;
  file(rel: string): string;
  cleanup(): Promise<void>;
}

export interface HarnessOptions {
  /** Replaces the window system's "open this session in a new window" (e.g. one that fails). */
  openSessionWindow?: (sessionId: SessionId) => void | Promise<void>;
  /** The native yes/no dialog main asks itself (default: `native`, a fake); null: none, so such questions are refused. */
  confirm?: NativeConfirm | null;
  /** false: no OPENAI_API_KEY in the service's environment (a key may still be stored). Default true. */
  apiKeyInEnv?: boolean;
}

export async function makeServiceHarness(files: Record<string, string> = { 'greet.go': GREET }, options: HarnessOptions = {}): Promise<ServiceHarness> {
  const temp = await makeTempHome({ prefix: 'service-int', files });
  const { root, home, project } = temp;
  const server = await startMockResponsesServer();
  const env: NodeJS.ProcessEnv = { HOME: home, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key', MINO_MODEL: 'mock-model' };
  if (options.apiKeyInEnv === false) delete env.OPENAI_API_KEY;
  const picker = new FakeFolderPicker();
  const native = new FakeNativeConfirm();
  const confirm = options.confirm === undefined ? native.confirm : options.confirm;
  const openedWindows: SessionId[] = [];
  const focused: ClientId[] = [];
  const notifications: ServiceHarness['notifications'] = [];
  const contexts: ServiceHarness['contexts'] = [];
  const openedLinks: string[] = [];
  const services: MinoService[] = [];
  const makeService = () => {
    const made = new MinoService({
      homeDir: home,
      appName: 'Mino',
      appVersion: '0.0.0-test',
      secrets: new MemorySecretStore(),
      pickFolder: picker.pick,
      // The same stand-in answers the Evaluate view's file dialog: a test says which file is "picked".
      pickFile: picker.pick,
      env,
      openSessionWindow: options.openSessionWindow ?? ((sessionId) => void openedWindows.push(sessionId)),
      focusClient: (client) => void focused.push(client),
      notifyApprovalWaiting: (client, sessionId, toolName) => void notifications.push({ client, sessionId, toolName }),
      clientContextChanged: (client, context) => void contexts.push({ client, context }),
      openExternal: async (url) => void openedLinks.push(url),
      ...(confirm ? { confirm } : {}),
    });
    services.push(made);
    return made;
  };
  const service = makeService();
  const connect = (name: string, target: MinoService = service) => new FakeClient(clientId(name), target, options.confirm === undefined ? native : undefined);

  return {
    root,
    home,
    project,
    server,
    env,
    picker,
    native,
    service,
    openedWindows,
    focused,
    notifications,
    contexts,
    openedLinks,
    restart: makeService,
    connect,
    async clientWithSession(name, target = service) {
      const client = connect(name, target);
      picker.willPick(project);
      await client.value('projects:pick');
      const opened = await client.value<{ where: string; session: SessionView }>('sessions:new');
      if (opened.where !== 'here') throw new Error(`Expected the new session here, got ${opened.where}.`);
      return { client, session: opened.session };
    },
    file: (rel) => path.join(project, rel),
    async cleanup() {
      await Promise.all(services.map((made) => made.close()));
      await server.close();
      await temp.cleanup();
    },
  };
}

export const EDIT_GREETING = {
  calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'call_edit' }],
};

/** Loosens the client's mode the way a person does: picks it, and says yes in main's own dialog. */
export async function loosen(client: FakeClient, mode: string): Promise<ModeChangeResult> {
  if (!client.native) throw new Error('This harness was given its own native dialog: answer it in the test.');
  const before = client.native.questions.length;
  const answer = client.native.answer;
  client.native.answer = true;
  try {
    const changed = await client.value<ModeChangeResult>('mode:set', { mode });
    if (client.native.questions.length !== before + 1) throw new Error(`Expected main to ask before ${mode}.`);
    if (changed.status !== 'changed') throw new Error(`Expected ${mode} after the yes, got ${changed.status}: ${changed.message}`);
    return changed;
  } finally {
    client.native.answer = answer;
  }
}
