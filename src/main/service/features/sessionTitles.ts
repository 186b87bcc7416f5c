// What a window shows in its title: the project and the session's title (the
// person's, or its first question shortened), so a person can tell windows apart.
import * as path from 'node:path';
import type { Project } from '../../../shared/ipc';
import type { ClientId, ClientRegistry } from '../clients';
import type { ServicePorts } from '../ports';
import type { OpenSession } from './openSession';
import { errorText, log } from '../../core/log/log';
import { sessionLabel } from '../../../shared/sessionTitle';

export { sessionLabel };

export function projectOf(projectDir: string): Project {
  return { path: projectDir, name: path.basename(projectDir) || projectDir };
}

/** Reports what the client shows now (its window title follows this). */
export function announceContext(
  ports: Pick<ServicePorts, 'clientContextChanged'>,
  clients: ClientRegistry,
  client: ClientId,
  session: OpenSession | null,
): void {
  if (!ports.clientContextChanged || !clients.has(client)) return;
  const project = clients.state(client).project;
  const shown = session ? { id: session.id, label: sessionLabel(session.firstQuestion, session.conversation.title) } : null;
  try {
    ports.clientContextChanged(client, { project, session: shown });
  } catch (error) {
    // A title that cannot be set is cosmetic; the request that changed the context still succeeded.
    log.warn('window.title_failed', { client, error: errorText(error) });
  }
}
