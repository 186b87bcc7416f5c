// What happens to a window's session when the window opens another project:
// a session of another project is closed (it stays saved), refused while its
// turn runs; the window's title follows the new project.
import type { ClientId, ClientRegistry } from '../clients';
import type { ProjectSwitchHooks } from './projects';
import { WINDOW_CLOSED_REASON, type Sessions } from './sessions';

export function projectSwitchHooks(sessions: Sessions, clients: ClientRegistry): ProjectSwitchHooks {
  return {
    async releaseForProject(client: ClientId, projectDir: string): Promise<void> {
      const session = sessions.ownedBy(client);
      if (!session || session.conversation.projectDir === projectDir) return;
      if (session.turn) {
        throw new Error('A turn is running in this window. Stop it or wait for it to finish, then open the other project.');
      }
      clients.state(client).session = null;
      await sessions.close(session.id, WINDOW_CLOSED_REASON);
    },
    async announceCurrent(client: ClientId): Promise<void> {
      sessions.announce(client, sessions.ownedBy(client) ?? null);
    },
  };
}
