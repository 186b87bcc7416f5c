// Sessions a person talks in, each owned by exactly one client (window). A
// client owns at most one session; asking for another one from a client that
// already has one opens it in a new window instead. Closing a client closes its
// session: the running turn is stopped, pending asks are denied, the log and
// the session's MCP connections are closed. This module is the lifecycle
// (create, open, clear, acknowledge, close); the view, the titles, the lock
// and what a project switch does live in their own modules beside it.
import * as fs from 'node:fs/promises';
import type { SessionId, SessionSummary } from '../../../shared/domain';
import type { SessionOpenResult, SessionView } from '../../../shared/sessions';
import { TurnInProgressError } from '../../core/agent/conversation';
import { openSession, type HostedSession, type SessionHostOptions } from '../../core/agent/sessionHost';
import { loadSettings } from '../../core/config/settings';
import { checkProjectDir } from '../../core/projects/checkProject';
import { sessionFile } from '../../core/sessions/ids';
import { listSessions } from '../../core/sessions/list';
import { renameSavedSession } from '../../core/agent/renameSession';
import { discardFork } from '../../core/agent/forkSession';
import type { SessionRecord } from '../../core/sessions/records';
import { SessionLog } from '../../core/sessions/sessionLog';
import type { ClientId, ClientRegistry, ClientState } from '../clients';
import type { ServicePorts } from '../ports';
import type { ApprovalBroker } from './approvals';
import type { PermissionModes } from './modes';
import type { OpenSession } from './openSession';
import { SessionLock } from './sessionLock';
import { SessionChoice } from './sessionChoice';
import { announceContext, projectOf } from './sessionTitles';
import { sessionView } from './sessionView';
import { errorText, log } from '../../core/log/log';

export interface SessionsDeps {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  clients: ClientRegistry;
  modes: PermissionModes;
  broker: ApprovalBroker;
  storedApiKey: () => Promise<string | null>;
  /** The key stored for a listed model service, by its name. */
  storedServiceKey?: (service: string) => Promise<string | null>;
  ports: Pick<ServicePorts, 'openSessionWindow' | 'focusClient' | 'clientContextChanged' | 'fetch'>;
}

export const NO_PROJECT_MESSAGE = 'Open a project first.';
export const SESSION_REQUIRED_MESSAGE = 'This window has no session. Start a new session or open a saved one first.';
export const WINDOW_CLOSED_REASON = 'The window closed, so this call was denied.';

export class Sessions {
  private readonly open = new Map<SessionId, OpenSession>();
  private readonly lock = new SessionLock();

  constructor(private readonly deps: SessionsDeps) {}

  ownedBy(client: ClientId): OpenSession | undefined {
    const id = this.deps.clients.state(client).session;
    return id ? this.open.get(id) : undefined;
  }

  require(client: ClientId): OpenSession {
    const session = this.ownedBy(client);
    if (!session) throw new Error(SESSION_REQUIRED_MESSAGE);
    return session;
  }

  /** Still the client's session (it may have been closed while something was awaited). */
  isOpen(session: OpenSession): boolean {
    return this.open.get(session.id) === session;
  }

  async list(client: ClientId): Promise<SessionSummary[]> {
    const project = this.deps.clients.state(client).project;
    if (!project) return [];
    // Marked when another window holds it, so the list can say so before the person tries to open it there.
    return (await listSessions(this.deps.homeDir, project.path)).map((summary) => {
      const holder = this.open.get(summary.id)?.client;
      return holder !== undefined && holder !== client ? { ...summary, openElsewhere: true } : summary;
    });
  }

  async current(client: ClientId): Promise<SessionView | null> {
    const session = this.ownedBy(client);
    return session ? this.view(session, true) : null;
  }

  /** A new session in the client's project: here if the client has none, else in a new window. */
  create(client: ClientId): Promise<SessionOpenResult> {
    return this.lock.exclusive(async () => {
      const state = this.deps.clients.state(client);
      if (!state.project) throw new Error(NO_PROJECT_MESSAGE);
      const check = await checkProjectDir(state.project.path, this.deps.homeDir);
      if (!check.ok) throw new Error(check.reason);
      if (state.session) {
        const opener = this.requireOpener();
        // Only the header is saved here; the new window opens the session like any saved one.
        const log = await SessionLog.create(this.deps.homeDir, check.projectDir);
        await log.close();
        try {
          await opener(log.id);
        } catch (error) {
          // No window will ever open it (openById waits for this lock), so it would only be an empty orphan in the list.
          await fs.rm(sessionFile(this.deps.homeDir, log.id), { force: true });
          throw error;
        }
        return { where: 'elsewhere', sessionId: log.id };
      }
      // A new session starts on the default service; the model picker changes it.
      const choice = new SessionChoice({});
      const hosted = await openSession(this.hostOptions(choice), { start: check.projectDir });
      try {
        return { where: 'here', session: await this.bind(client, state, hosted, choice) };
      } catch (error) {
        await hosted.close();
        throw error;
      }
    });
  }

  /**
   * Opens a saved session, or points at the window that has it. `where`
   * (default: here if the client has no session, else a new window): `here`
   * closes the client's own session first (refused while its turn runs);
   * `new-window` opens it in a window of its own.
   */
  openById(client: ClientId, id: SessionId, where?: 'here' | 'new-window'): Promise<SessionOpenResult> {
    return this.lock.exclusive(async () => {
      const state = this.deps.clients.state(client);
      const owned = this.open.get(id);
      if (owned && owned.client === client) return { where: 'here', session: await this.view(owned, true) };
      if (owned) {
        this.deps.ports.focusClient?.(owned.client);
        return { where: 'elsewhere', sessionId: id };
      }
      await this.requireSavedSession(id);
      if (where === 'new-window' || (state.session && where !== 'here')) {
        await this.requireOpener()(id);
        return { where: 'elsewhere', sessionId: id };
      }
      if (state.session) {
        const mine = this.open.get(state.session);
        if (mine?.turn) throw new Error('This window\'s session is still running a turn. Stop it or wait for it to end, then open the other session.');
        await this.close(state.session, WINDOW_CLOSED_REASON);
        state.session = null;
      }
      await this.lock.closed(id);
      const choice = new SessionChoice({});
      const hosted = await openSession(this.hostOptions(choice), { resume: id });
      // A saved session goes on with the service and model its log last recorded (read with the log, not again).
      choice.choose(hosted.conversation.recordedModel ?? {}, false);
      try {
        const check = await checkProjectDir(hosted.conversation.projectDir, this.deps.homeDir);
        if (!check.ok) throw new Error(`This session's project cannot be opened: ${check.reason}`);
        return { where: 'here', session: await this.bind(client, state, hosted, choice) };
      } catch (error) {
        await hosted.close();
        throw error;
      }
    });
  }

  /**
   * Edit and resend: continues the client's session from the person's message
   * number `message` (0-based, among those its window shows) as a new session,
   * a fork (core/agent/forkSession.ts), opened here in its place. The original
   * is only read, then closed, so it stays as it was and can be resumed.
   * Refused while a turn runs.
   */
  fork(client: ClientId, message: number): Promise<SessionOpenResult> {
    return this.lock.exclusive(async () => {
      const state = this.deps.clients.state(client);
      const source = this.require(client);
      if (source.turn) throw new TurnInProgressError();
      const choice = new SessionChoice(source.choice.chosen);
      const hosted = await openSession(this.hostOptions(choice), { fork: { from: source.id, message } });
      if (source.turn || !this.isOpen(source)) {
        // A message was sent (or the window closed) while the fork was written: the person's last act wins.
        await hosted.close();
        await discardFork(this.deps.homeDir, hosted.conversation.id);
        if (source.turn) throw new TurnInProgressError();
        throw new Error('The window closed before the new session opened.');
      }
      await this.close(source.id, WINDOW_CLOSED_REASON);
      state.session = null;
      try {
        return { where: 'here', session: await this.bind(client, state, hosted, choice) };
      } catch (error) {
        await hosted.close();
        throw error;
      }
    });
  }

  /**
   * Names a saved session of the client's project: through its Conversation
   * when a window here has it open (that window's header and title follow),
   * else with one record under the session's lock.
   */
  rename(client: ClientId, id: SessionId, title: string): Promise<SessionSummary> {
    return this.lock.exclusive(async () => {
      const project = this.deps.clients.state(client).project;
      if (!project) throw new Error(NO_PROJECT_MESSAGE);
      const summary = (await listSessions(this.deps.homeDir, project.path)).find((saved) => saved.id === id);
      if (!summary) throw new Error(`There is no saved session ${id} in this project. It may have been deleted; reload the list and choose another.`);
      const owned = this.open.get(id);
      let saved: string;
      if (owned) {
        saved = await owned.conversation.rename(title);
        await this.changed(owned);
      } else {
        await this.lock.closed(id);
        saved = await renameSavedSession(this.deps.homeDir, id, title, 'desktop window');
      }
      return { ...summary, title: saved };
    });
  }

  async clear(client: ClientId): Promise<SessionView> {
    const session = this.require(client);
    if (session.turn) throw new TurnInProgressError();
    await session.conversation.clear();
    const view = await this.view(session, true);
    await this.changed(session);
    return view;
  }

  async acknowledge(client: ClientId): Promise<SessionView> {
    const session = this.require(client);
    await session.conversation.acknowledge();
    const view = await this.view(session, true);
    await this.changed(session);
    return view;
  }

  /** The session as its window shows it (see sessionView). */
  view(session: OpenSession, withPast: boolean, loadedRecords: readonly SessionRecord[] | null = null): Promise<SessionView> {
    return sessionView(this.deps.homeDir, session, this.deps.modes.get(session.id), withPast, loadedRecords);
  }

  /** Tells the owning client its session changed (busy, mode, unknown results, cleared), without its past. */
  async changed(session: OpenSession): Promise<void> {
    const view = await this.view(session, false);
    if (this.isOpen(session)) {
      this.deps.clients.emitTo(session.client, 'session:changed', view);
      this.announce(session.client, session);
    }
  }

  /** A question is being sent: the first one names the session in its window title. */
  noteQuestion(session: OpenSession, text: string): void {
    session.firstQuestion ??= text;
  }

  /** Reports what the client shows now (its window title follows this). */
  announce(client: ClientId, session: OpenSession | null = null): void {
    announceContext(this.deps.ports, this.deps.clients, client, session);
  }

  /** The client went away: closes its session. Resolves when everything is closed. */
  closeClient(state: ClientState | undefined): Promise<void> {
    return state?.session ? this.close(state.session, WINDOW_CLOSED_REASON) : Promise.resolve();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id, WINDOW_CLOSED_REASON)));
    await this.lock.allClosed();
  }

  /** Closes a session: its turn is stopped, pending asks are denied with `reason`, its log and MCP servers closed. */
  close(id: SessionId, reason: string): Promise<void> {
    const session = this.open.get(id);
    if (!session) return this.lock.closed(id);
    this.open.delete(id);
    this.deps.modes.forgetTickets(id);
    const closed = (async () => {
      session.turn?.controller.abort();
      this.deps.broker.denyAll(id, reason);
      await session.turn?.done;
      // The host releases every part whatever fails (sessionHost.ts); what failed is only logged.
      await session.close().catch((error: unknown) => log.warn('session.close_failed', { session: id, error: errorText(error) }));
    })();
    this.lock.closingUntil(id, closed);
    return closed;
  }

  private async bind(client: ClientId, state: ClientState, hosted: HostedSession, choice: SessionChoice): Promise<SessionView> {
    if (!this.deps.clients.has(client)) throw new Error('The window closed before the session opened.');
    const { conversation } = hosted;
    const session: OpenSession = { id: conversation.id, client, conversation, close: hosted.close, turn: null, firstQuestion: null, choice };
    this.open.set(session.id, session);
    state.session = session.id;
    state.project = projectOf(conversation.projectDir);
    const view = await this.view(session, true, conversation.takeLoadedRecords());
    this.announce(client, session);
    return view;
  }

  /** How a window opens a session: through the same host as every CLI command (core/agent/sessionHost.ts). */
  private hostOptions(choice: SessionChoice): SessionHostOptions {
    const { homeDir, env, storedApiKey, storedServiceKey, ports } = this.deps;
    return {
      homeDir,
      env,
      owner: 'desktop window',
      storedApiKey,
      ...(storedServiceKey ? { storedServiceKey } : {}),
      ...(ports.fetch ? { fetch: ports.fetch } : {}),
      choice: () => choice.inUse,
      settings: async () => {
        const loaded = await loadSettings(homeDir);
        if (!loaded.ok) throw new Error(loaded.error);
        return loaded.value.settings;
      },
    };
  }

  private requireOpener(): NonNullable<ServicePorts['openSessionWindow']> {
    const opener = this.deps.ports.openSessionWindow;
    if (!opener) throw new Error('This window already has a session, and Mino cannot open another window here. Close this session first.');
    return opener;
  }

  private async requireSavedSession(id: SessionId): Promise<void> {
    try {
      await fs.access(sessionFile(this.deps.homeDir, id));
    } catch {
      throw new Error(`There is no saved session ${id}. It may have been deleted; choose another session or start a new one.`);
    }
  }
}
