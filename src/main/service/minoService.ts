// MinoService implements the IPC contract without knowing any transport.
// Each feature lives in its own module under features/; this class only holds
// the shared pieces (ports, clients, sessions, modes, the approval broker) and
// maps each channel to its handler.
import { ClientRegistry, type ClientId, type EventSink } from './clients';
import type { DispatchTarget, InvokeHandlers } from './dispatch';
import { appInfo } from './features/appInfo';
import { compactSession, editSummary } from './features/compaction';
import { apiKeyStatus, resolveApiKey, setApiKey } from './features/apiKey';
import { ApprovalBroker } from './features/approvals';
import { ExternalLinks } from './features/links';
import { findFiles, listFiles } from './features/files';
import { mcpStatus } from './features/mcpStatus';
import { PermissionModes, setPermissionMode } from './features/modes';
import { openDroppedProject, openRecentProject, pickAndOpenProject, recentProjects } from './features/projects';
import { projectSwitchHooks } from './features/projectSwitch';
import { Sessions } from './features/sessions';
import { getSettings, sessionSandbox, setSettings } from './features/settings';
import { listSkills, reloadSkills } from './features/skills';
import { listChanges, planReversal, reverseChanges } from './features/changes';
import { answerApproval } from './features/alwaysAllow';
import { addRule, listLedger, listRules, removeRule, type RulesDeps } from './features/rules';
import { retryTurn, sendMessage, stopTurn } from './features/turns';
import { steerTurn } from './features/steering';
import { messageImageRefs, readImageData, requireImageInput, UnsentImages } from './features/images';
import { Evaluations } from './features/evaluate';
import { serviceHandlers, servicesDepsOf } from './features/serviceHandlers';
import { requireWorkingService, servicesView } from './features/services';
import type { ServicePorts } from './ports';
import { DEFAULT_SERVICE_NAME } from '../../shared/modelServices';

export class MinoService implements DispatchTarget {
  private readonly clients = new ClientRegistry();
  private readonly env: NodeJS.ProcessEnv;
  /** Memory only, one per app run: a restart starts every session in manual. */
  private readonly modes = new PermissionModes();
  private readonly broker: ApprovalBroker;
  private readonly sessions: Sessions;
  private readonly links: ExternalLinks;
  private readonly evaluations: Evaluations;
  private readonly unsentImages = new UnsentImages();
  readonly handlers: InvokeHandlers;

  constructor(private readonly ports: ServicePorts) {
    this.env = ports.env ?? process.env;
    const { homeDir, secrets } = ports;
    const { clients, modes } = this;
    const broker = (this.broker = new ApprovalBroker(clients, ports.notifyApprovalWaiting));
    const sessions = (this.sessions = new Sessions({
      homeDir,
      env: this.env,
      clients,
      modes,
      broker,
      storedApiKey: () => secrets.getKey(DEFAULT_SERVICE_NAME),
      storedServiceKey: (name) => secrets.getKey(name),
      ports,
    }));
    const projectDeps = { homeDir, clients, pickFolder: ports.pickFolder, sessions: projectSwitchHooks(sessions, clients) };
    const turnDeps = { clients, sessions, modes, broker };
    const links = (this.links = new ExternalLinks(ports.openExternal));
    const evaluations = (this.evaluations = new Evaluations({ homeDir, env: this.env, clients, sessions, secrets, ...(ports.pickFile ? { pickFile: ports.pickFile } : {}) }));
    const rulesDeps: RulesDeps = { homeDir, clients, confirm: ports.confirm, asking: new Set() };
    // Model services: Settings → Services, the first-run setup, and the session's model picker.
    const servicesDeps = servicesDepsOf(ports, this.env, clients, secrets);
    this.handlers = {
      'app:info': async () => appInfo(ports),
      'settings:get': async () => getSettings(homeDir),
      'settings:set': async (client, input) => setSettings({ homeDir, clients, secrets, env: this.env, confirm: ports.confirm, settingsChanged: ports.settingsChanged }, client, input),
      'mcp:status': async (client) => mcpStatus(homeDir, clients.state(client).project?.path ?? null),
      'skills:list': async (client) => listSkills(homeDir, clients, sessions, client),
      'skills:reload': async (client) => reloadSkills(homeDir, clients, sessions, client),
      'changes:list': async (client) => listChanges(sessions, client),
      'changes:plan': async (client, input) => planReversal(sessions, client, input),
      'changes:reverse': async (client, input) => reverseChanges(sessions, client, input),
      'apiKey:status': async () => apiKeyStatus(secrets, this.env),
      'apiKey:set': async (_client, input) => {
        const status = await setApiKey(secrets, this.env, input.apiKey);
        clients.broadcast('services:changed', await servicesView(servicesDeps));
        return status;
      },
      // Model services, and the session's service and model.
      ...serviceHandlers(servicesDeps, sessions),
      'projects:recent': async () => recentProjects(homeDir),
      'projects:pick': async (client) => pickAndOpenProject(projectDeps, client),
      'projects:openRecent': async (client, input) => openRecentProject(projectDeps, client, input.path),
      'projects:current': async (client) => clients.state(client).project,
      'projects:openDropped': async (client, input) => openDroppedProject(projectDeps, client, input.path),
      'files:list': async (client, input) => listFiles({ homeDir, clients }, client, input.path),
      'files:find': async (client, input) => findFiles({ homeDir, clients }, client, input.query),
      'sessions:list': async (client) => sessions.list(client),
      'sessions:new': async (client) => sessions.create(client),
      'sessions:open': async (client, input) => sessions.openById(client, input.id, input.where),
      'sessions:rename': async (client, input) => sessions.rename(client, input.id, input.title),
      'sessions:current': async (client) => sessions.current(client),
      'sessions:clear': async (client) => sessions.clear(client),
      'sessions:acknowledge': async (client) => sessions.acknowledge(client),
      // Edit and resend: the fork opens in this window.
      'sessions:fork': async (client, input) => sessions.fork(client, input.message),
      'turn:send': async (client, input) => {
        // Refused with a pointer to Settings → Services while no service works; a pick waiting for this message applies now.
        const session = sessions.require(client);
        if (!session.turn) session.choice.applyWaiting();
        await requireWorkingService(servicesDeps, session.choice.inUse.service);
        const images = await messageImageRefs(homeDir, input.images);
        await requireImageInput(homeDir, this.env, session.choice.inUse.service, images);
        return this.unsentImages.sending(client, sendMessage(turnDeps, client, input.text, images));
      },
      // Images in messages: kept by content in ~/.mino/images; thumbnails read back as data: URLs.
      'images:add': async (client, input) => this.unsentImages.add(homeDir, client, input),
      'images:read': async (_client, input) => readImageData(homeDir, input.sha256),
      'turn:stop': async (client) => stopTurn(turnDeps, client),
      // Retry of a failed turn (features/failedTurns.ts).
      'turn:retry': async (client) => retryTurn(turnDeps, client),
      // Send now: the text goes to the running turn's next request, or the answer says why not.
      'turn:steer': async (client, input) => steerTurn(sessions, client, input.text),
      'context:compact': async (client) => compactSession(turnDeps, client),
      'context:editSummary': async (client, input) => editSummary(turnDeps, client, input.text),
      'approvals:answer': async (client, input) => answerApproval({ ...rulesDeps, broker }, client, input, new Date()),
      'rules:list': async (client) => listRules(rulesDeps, client),
      'rules:add': async (client, input) => addRule(rulesDeps, client, input, new Date()),
      'rules:remove': async (client, input) => removeRule(rulesDeps, client, input.id),
      'ledger:list': async (client, input) => listLedger(rulesDeps, client, input),
      'mode:set': async (client, input) => setPermissionMode({ sessions, modes, confirm: ports.confirm, sandbox: () => sessionSandbox(homeDir) }, client, input),
      // The Evaluate view: case files run as `mino eval` runs them.
      ...evaluations.handlers(),
      'links:check': async (client, input) => links.check(client, input.url),
      'links:open': async (client, input) => links.open(client, input.id),
    };
  }

  /** A renderer connected (a window opened, a socket joined); events for it go to `emit`. */
  attachClient(client: ClientId, emit: EventSink): void {
    this.clients.attach(client, emit);
  }

  /**
   * The renderer is gone; its state goes with it. Its running turn is stopped,
   * its pending asks are denied, its session and MCP connections are closed;
   * the promise settles when all of that is done.
   */
  detachClient(client: ClientId): Promise<void> {
    this.links.forget(client);
    this.evaluations.forget(client);
    this.unsentImages.forget(client);
    return this.sessions.closeClient(this.clients.detach(client));
  }

  hasClient(client: ClientId): boolean {
    return this.clients.has(client);
  }

  /** Closes every open session (the app is quitting). */
  close(): Promise<void> {
    return this.sessions.closeAll();
  }

  get homeDir(): string {
    return this.ports.homeDir;
  }

  /** The API key for the model client (environment first). Never sent to a renderer. */
  apiKey(): Promise<string | null> {
    return resolveApiKey(this.ports.secrets, this.env);
  }
}
