// The model services' channels, for MinoService to spread into its table:
// Settings → Services, the first-run setup, and the session's model picker.
import type { InvokeHandlers } from '../dispatch';
import type { ClientRegistry } from '../clients';
import type { SecretStore, ServicePorts } from '../ports';
import { ServiceChecks } from './serviceChecks';
import { sessionModel, setSessionModel } from './sessionModel';
import type { Sessions } from './sessions';
import { deleteServiceKey, listServiceModels, removeService, saveService, servicesView, setServiceKey, testService, type ServicesDeps } from './services';

type ServiceChannel =
  | 'services:list'
  | 'services:save'
  | 'services:remove'
  | 'services:setKey'
  | 'services:deleteKey'
  | 'services:test'
  | 'services:models'
  | 'session:model'
  | 'session:setModel';

/** What the services features need, from the service's ports. */
export function servicesDepsOf(ports: ServicePorts, env: NodeJS.ProcessEnv, clients: ClientRegistry, secrets: SecretStore): ServicesDeps {
  return {
    homeDir: ports.homeDir,
    env,
    secrets,
    clients,
    checks: new ServiceChecks(ports.homeDir),
    ...(ports.confirm ? { confirm: ports.confirm } : {}),
    ...(ports.fetch ? { fetch: ports.fetch } : {}),
    ...(ports.withholdVariables ? { withholdVariables: ports.withholdVariables } : {}),
    ...(ports.settingsChanged ? { settingsChanged: ports.settingsChanged } : {}),
  };
}

export function serviceHandlers(deps: ServicesDeps, sessions: Sessions): Pick<InvokeHandlers, ServiceChannel> {
  const modelDeps = { homeDir: deps.homeDir, env: deps.env, sessions };
  return {
    'services:list': async () => servicesView(deps),
    'services:save': async (client, input) => saveService(deps, client, input),
    'services:remove': async (_client, input) => removeService(deps, input.name),
    'services:setKey': async (_client, input) => setServiceKey(deps, input.name, input.apiKey),
    'services:deleteKey': async (_client, input) => deleteServiceKey(deps, input.name),
    'services:test': async (_client, input) => testService(deps, input.name),
    'services:models': async (_client, input) => listServiceModels(deps, input.name),
    'session:model': async (client) => sessionModel(modelDeps, client),
    'session:setModel': async (client, input) => setSessionModel(modelDeps, client, input),
  };
}
