// MinoService implements the IPC contract without knowing any transport.
// Each feature lives in its own module under features/; this class only holds
// the shared pieces (ports, clients) and maps each channel to its handler.
import { ClientRegistry, type ClientId, type EventSink } from './clients';
import type { DispatchTarget, InvokeHandlers } from './dispatch';
import { appInfo } from './features/appInfo';
import { apiKeyStatus, resolveApiKey, setApiKey } from './features/apiKey';
import { openRecentProject, pickAndOpenProject, recentProjects } from './features/projects';
import { getSettings, setSettings } from './features/settings';
import type { ServicePorts } from './ports';

export class MinoService implements DispatchTarget {
  private readonly clients = new ClientRegistry();
  private readonly env: NodeJS.ProcessEnv;
  readonly handlers: InvokeHandlers;

  constructor(private readonly ports: ServicePorts) {
    this.env = ports.env ?? process.env;
    const { homeDir, secrets } = ports;
    const projectDeps = { homeDir, clients: this.clients, pickFolder: ports.pickFolder };
    this.handlers = {
      'app:info': async () => appInfo(ports),
      'settings:get': async () => getSettings(homeDir),
      'settings:set': async (_client, input) => setSettings(homeDir, this.clients, input),
      'apiKey:status': async () => apiKeyStatus(secrets, this.env),
      'apiKey:set': async (_client, input) => setApiKey(secrets, this.env, input.apiKey),
      'projects:recent': async () => recentProjects(homeDir),
      'projects:pick': async (client) => pickAndOpenProject(projectDeps, client),
      'projects:openRecent': async (client, input) => openRecentProject(projectDeps, client, input.path),
      'projects:current': async (client) => this.clients.state(client).project,
    };
  }

  /** A renderer connected (a window opened, a socket joined); events for it go to `emit`. */
  attachClient(client: ClientId, emit: EventSink): void {
    this.clients.attach(client, emit);
  }

  /** The renderer is gone; its state goes with it. */
  detachClient(client: ClientId): void {
    this.clients.detach(client);
  }

  hasClient(client: ClientId): boolean {
    return this.clients.has(client);
  }

  get homeDir(): string {
    return this.ports.homeDir;
  }

  /** The API key for the model client (environment first). Never sent to a renderer. */
  apiKey(): Promise<string | null> {
    return resolveApiKey(this.ports.secrets, this.env);
  }
}
