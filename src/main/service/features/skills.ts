// The skills a window shows: its session's (found when the session started
// or was last reloaded, so the list is exactly what the model is offered),
// or, for a window without a session, what its project and ~/.mino/skills
// hold now.
import type { SkillsView } from '../../../shared/skills';
import { discoverSkills, skillsView } from '../../core/skills/discoverSkills';
import type { ClientId, ClientRegistry } from '../clients';
import type { Sessions } from './sessions';

export async function listSkills(homeDir: string, clients: ClientRegistry, sessions: Sessions, client: ClientId): Promise<SkillsView> {
  const session = sessions.ownedBy(client);
  if (session) return skillsView(session.conversation.skills);
  return skillsView(await discoverSkills(clients.state(client).project?.path ?? null, homeDir));
}

export async function reloadSkills(homeDir: string, clients: ClientRegistry, sessions: Sessions, client: ClientId): Promise<SkillsView> {
  const session = sessions.ownedBy(client);
  if (!session) return listSkills(homeDir, clients, sessions, client);
  return skillsView(await session.conversation.reloadSkills());
}
