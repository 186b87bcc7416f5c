// The model picker of a session's window: which service and model the
// session uses, and the person's pick of another. A pick names a configured
// service (checked here, so a typo is refused at once rather than at the next
// turn); the log records it when the next turn starts (core/agent/turnSetup.ts),
// and the history goes on unchanged whichever service answers next.
import { serviceNamed } from '../../core/config/modelConfig';
import { loadSettingsWithServices } from '../../core/config/settings';
import type { SessionModel } from '../../../shared/serviceViews';
import type { ClientId } from '../clients';
import type { Sessions } from './sessions';

export interface SessionModelDeps {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  sessions: Sessions;
}

export async function sessionModel(deps: SessionModelDeps, client: ClientId): Promise<SessionModel> {
  const session = deps.sessions.require(client);
  const chosen = session.choice.chosen;
  const loaded = await loadSettingsWithServices(deps.homeDir);
  if (!loaded.ok) return { service: chosen.service ?? '', model: chosen.model ?? '', pending: session.choice.pending };
  try {
    const service = serviceNamed(chosen.service, { settings: loaded.value.settings, services: loaded.value.services, env: deps.env });
    return { service: service.name, model: chosen.model?.trim() || service.model, pending: session.choice.pending };
  } catch {
    // ignore: the session names a service no longer configured; the picker shows the name, and a turn says what to do
    return { service: chosen.service ?? '', model: chosen.model ?? '', pending: session.choice.pending };
  }
}

export async function setSessionModel(deps: SessionModelDeps, client: ClientId, input: { service: string; model: string }): Promise<SessionModel> {
  const session = deps.sessions.require(client);
  const loaded = await loadSettingsWithServices(deps.homeDir);
  if (!loaded.ok) throw new Error(loaded.error);
  // Throws the person-facing "There is no model service named …" with the names that exist.
  serviceNamed(input.service, { settings: loaded.value.settings, services: loaded.value.services, env: deps.env });
  session.choice.choose({ service: input.service, model: input.model }, session.turn !== null);
  return sessionModel(deps, client);
}
