// Sessions a person talks in, each owned by exactly one client (window). A
// client owns at most one session; asking for another one from a client that
// already has one opens it in a new window instead. Closing a client closes its
// session: the running turn is stopped, pending asks are denied, the log and
// the session's MCP connections are closed.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionId, SessionSummary } from '../../../shared/domain';
import type { Project } from '../../../shared/ipc';
import type { SessionOpenResult, SessionView, TurnEvent } from '../../../shared/sessions';
import { Conversation, TurnInProgressError } from '../../core/agent/conversation';
import { BUILTIN_TOOLS, sessionDeps } from '../../core/agent/defaultDeps';
import { ToolRegistry } from '../../core/agent/toolRegistry';
import { loadSettings } from '../../core/config/settings';
import type { PermissionMode } from '../../../shared/domain';
import { checkProjectDir } from '../../core/projects/checkProject';
import { sessionFile } from '../../core/sessions/ids';
import { listSessions } from '../../core/sessions/list';
import { loadSession } from '../../core/sessions/load';
import type { SessionRecord } from '../../core/sessions/records';
import { replayEvents } from '../../core/sessions/replayEvents';
import { SessionLog } from '../../core/sessions/sessionLog';
import type { ClientId, ClientRegistry, ClientState } from '../clients';
import type { ServicePorts } from '../ports';
import type { ApprovalBroker } from './approvals';
import type { PermissionModes } from './modes';

export interface RunningTurn {
  readonly controller: AbortController;
  /**
   * The mode the turn's calls are decided under. It only ever tightens while
   * the turn runs (see `tightenRunningTurn`): a loosening waits for the next turn.
   */
  mode: PermissionMode;
  /** Settles when the turn has ended and its end was reported. */
  readonly done: Promise<void>;
}

export interface OpenSession {
  readonly id: SessionId;
  readonly client: ClientId;
  readonly conversation: Conversation;
  /** Stops the session's MCP servers. */
  readonly closeDeps: () => Promise<void>;
  turn: RunningTurn | null;
  /** The first question asked, for the window title; null until there is one. */
  firstQuestion: string | null;
}

export interface SessionsDeps {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  clients: ClientRegistry;
  modes: PermissionModes;
  broker: ApprovalBroker;
  storedApiKey: () => Promise<string | null>;
  ports: Pick<ServicePorts, 'openSessionWindow' | 'focusClient' | 'clientContextChanged'>;
}

export const NO_PROJECT_MESSAGE = 'Open a project first.';
export const SESSION_REQUIRED_MESSAGE = 'This window has no session. Start a new session or open a saved one first.';
export const WINDOW_CLOSED_REASON = 'The window closed, so this call was denied.';
const LABEL_LENGTH = 60;

// The view shows what was saved; the log was validated when the session opened, so showing it needs no tool checks.
const acceptEveryCall = () => ({ ok: true }) as const;
/** How a saved call's card looks; built-in tools by their declarations, MCP tools by their names. */
const savedToolDisplay = new ToolRegistry(BUILTIN_TOOLS).display;

export class Sessions {
  private readonly open = new Map<SessionId, OpenSession>();
  /** Sessions still shutting down; opening one again waits, so two logs never append to one file. */
  private readonly closing = new Map<SessionId, Promise<void>>();
  /** Opening and creating run one at a time, so a session can never be bound to two clients. */
  private lock: Promise<unknown> = Promise.resolve();

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
    return project ? listSessions(this.deps.homeDir, project.path) : [];
  }

  async current(client: ClientId): Promise<SessionView | null> {
    const session = this.ownedBy(client);
    return session ? this.view(session, true) : null;
  }

  /** A new session in the client's project: here if the client has none, else in a new window. */
  create(client: ClientId): Promise<SessionOpenResult> {
    return this.exclusive(async () => {
      const state = this.deps.clients.state(client);
      if (!state.project) throw new Error(NO_PROJECT_MESSAGE);
      const check = await checkProjectDir(state.project.path, this.deps.homeDir);
      if (!check.ok) throw new Error(check.message);
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
      const made = this.makeDeps();
      let conversation: Conversation | undefined;
      try {
        conversation = await Conversation.start(made.deps, check.projectDir);
        return { where: 'here', session: await this.bind(client, state, conversation, made.close) };
      } catch (error) {
        await conversation?.close();
        await made.close();
        throw error;
      }
    });
  }

  /** Opens a saved session here, or points at the window that has it. */
  openById(client: ClientId, id: SessionId): Promise<SessionOpenResult> {
    return this.exclusive(async () => {
      const state = this.deps.clients.state(client);
      const owned = this.open.get(id);
      if (owned && owned.client === client) return { where: 'here', session: await this.view(owned, true) };
      if (owned) {
        this.deps.ports.focusClient?.(owned.client);
        return { where: 'elsewhere', sessionId: id };
      }
      await this.requireSavedSession(id);
      if (state.session) {
        await this.requireOpener()(id);
        return { where: 'elsewhere', sessionId: id };
      }
      await this.closing.get(id);
      const made = this.makeDeps();
      let conversation: Conversation | undefined;
      try {
        conversation = await Conversation.resume(made.deps, id);
        const check = await checkProjectDir(conversation.projectDir, this.deps.homeDir);
        if (!check.ok) throw new Error(`This session's project cannot be opened: ${check.message}`);
        return { where: 'here', session: await this.bind(client, state, conversation, made.close) };
      } catch (error) {
        await conversation?.close();
        await made.close();
        throw error;
      }
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

  /**
   * The session as its window shows it. With `withPast` (a window adopting the
   * session) the saved conversation is read from the log now; without it the
   * view costs nothing however long the session has grown. `loadedRecords`
   * are records just loaded from the log, shown instead of reading it again.
   */
  async view(session: OpenSession, withPast: boolean, loadedRecords: readonly SessionRecord[] | null = null): Promise<SessionView> {
    const loadProblems = session.conversation.loadProblems.map((problem) => problem.message);
    const view: SessionView = {
      id: session.id,
      projectDir: session.conversation.projectDir,
      mode: this.deps.modes.get(session.id),
      busy: session.turn !== null,
      unknownCalls: session.conversation.unknownCalls.map((call) => ({ callId: call.call_id, name: call.name, arguments: call.arguments })),
      loadProblems,
    };
    if (!withPast) return view;
    let past: TurnEvent[] = [];
    try {
      past = replayEvents(loadedRecords ?? (await loadSession(this.deps.homeDir, session.id, acceptEveryCall)).records, savedToolDisplay);
    } catch (error) {
      loadProblems.push(`The saved conversation cannot be shown: ${error instanceof Error ? error.message : String(error)}`);
    }
    const first = past.find((event) => event.type === 'user_message');
    session.firstQuestion = first?.type === 'user_message' ? first.text : null;
    return { ...view, past };
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
    if (!this.deps.ports.clientContextChanged || !this.deps.clients.has(client)) return;
    const project = this.deps.clients.state(client).project;
    const shown = session ? { id: session.id, label: sessionLabel(session.firstQuestion) } : null;
    try {
      this.deps.ports.clientContextChanged(client, { project, session: shown });
    } catch {
      // A title that cannot be set is cosmetic; the request that changed the context still succeeded.
    }
  }

  async announceCurrent(client: ClientId): Promise<void> {
    this.announce(client, this.ownedBy(client) ?? null);
  }

  /**
   * Before a client switches project: its session, if it belongs to another
   * project, is closed (it stays saved). Refused while a turn runs.
   */
  async releaseForProject(client: ClientId, projectDir: string): Promise<void> {
    const session = this.ownedBy(client);
    if (!session || session.conversation.projectDir === projectDir) return;
    if (session.turn) {
      throw new Error('A turn is running in this window. Stop it or wait for it to finish, then open the other project.');
    }
    this.deps.clients.state(client).session = null;
    await this.release(session.id, WINDOW_CLOSED_REASON);
  }

  /** The client went away: closes its session. Resolves when everything is closed. */
  closeClient(state: ClientState | undefined): Promise<void> {
    return state?.session ? this.release(state.session, WINDOW_CLOSED_REASON) : Promise.resolve();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.release(id, WINDOW_CLOSED_REASON)));
    await Promise.all([...this.closing.values()]);
  }

  private release(id: SessionId, reason: string): Promise<void> {
    const session = this.open.get(id);
    if (!session) return this.closing.get(id) ?? Promise.resolve();
    this.open.delete(id);
    this.deps.modes.forgetTickets(id);
    const closed = (async () => {
      session.turn?.controller.abort();
      this.deps.broker.denyAll(id, reason);
      await session.turn?.done;
      await session.conversation.close().catch(() => undefined);
      await session.closeDeps().catch(() => undefined);
    })();
    this.closing.set(id, closed);
    void closed.finally(() => {
      if (this.closing.get(id) === closed) this.closing.delete(id);
    });
    return closed;
  }

  private async bind(client: ClientId, state: ClientState, conversation: Conversation, closeDeps: () => Promise<void>): Promise<SessionView> {
    if (!this.deps.clients.has(client)) throw new Error('The window closed before the session opened.');
    const session: OpenSession = { id: conversation.id, client, conversation, closeDeps, turn: null, firstQuestion: null };
    this.open.set(session.id, session);
    state.session = session.id;
    state.project = projectOf(conversation.projectDir);
    const view = await this.view(session, true, conversation.takeLoadedRecords());
    this.announce(client, session);
    return view;
  }

  private makeDeps() {
    const { homeDir, env, storedApiKey } = this.deps;
    return sessionDeps({
      homeDir,
      env,
      owner: 'desktop window',
      storedApiKey,
      settings: async () => {
        const loaded = await loadSettings(homeDir);
        if (!loaded.ok) throw new Error(loaded.error);
        return loaded.value.settings;
      },
    });
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

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work);
    this.lock = run.catch(() => undefined);
    return run;
  }
}

export function projectOf(projectDir: string): Project {
  return { path: projectDir, name: path.basename(projectDir) || projectDir };
}

/** The first question, shortened, so a person can tell windows apart. */
function sessionLabel(firstQuestion: string | null): string {
  const text = firstQuestion?.replace(/\s+/g, ' ').trim() ?? '';
  if (!text) return 'New session';
  return text.length > LABEL_LENGTH ? `${text.slice(0, LABEL_LENGTH - 1)}…` : text;
}
