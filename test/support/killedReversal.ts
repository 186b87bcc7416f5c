// A process that resumes a session and undoes (or redoes) its last turn as a
// window would, and is killed (SIGKILL, by itself) the moment the reversal
// has created the temporary file of its first write: the state a crash or a
// kill at the worst moment leaves in the project. Argument: home, session
// id, "undo" or "redo".
import { Conversation } from '../../src/main/core/agent/conversation';
import { sessionDeps } from '../../src/main/core/agent/defaultDeps';
import { DEFAULT_SETTINGS } from '../../src/main/core/config/settings';
import type { SessionId } from '../../src/shared/domain';
import { killAt } from './killAt';

const [homeDir, id, action] = process.argv.slice(2);

// Atomic writes create their temporary file with openSync (fs/atomicWrite.ts): dying then leaves it, empty, in the project.
killAt({ afterOpen: /\.mino-[0-9a-f]{12}\.tmp$/ });

async function main(): Promise<void> {
  const { deps } = sessionDeps({ homeDir: homeDir!, env: { ...process.env, HOME: homeDir }, settings: async () => DEFAULT_SETTINGS });
  const conversation = await Conversation.resume(deps, id as SessionId);
  await conversation.reverse(action === 'redo' ? 'redo' : 'undo');
  // Not reached when the reversal wrote a file: the kill above comes first.
  process.stdout.write('finished without a write\n');
  await conversation.close();
}

void main();
