// The window's read-only view of its project's files: one folder of the file
// list, or a search for @mention suggestions. The project is the client's
// own (from the sender, never the payload), and the folder the renderer names
// is judged like a tool's path: normalized, protected rules first, confined.
import type { FileListing, FileSearch } from '../../../shared/files';
import { MINO_HOME_OVERLAP_MESSAGE, projectGuardFacts } from '../../core/fs/projectGuard';
import { listProjectFiles, searchProjectFiles, type MoreProtected } from '../../core/projects/projectFiles';
import { activeRulesFor } from '../../core/rules/activeRules';
import { protectRuleFor } from '../../core/rules/judge';
import { ruleLabel } from '../../core/rules/rules';
import { RulesFileError } from '../../core/rules/rulesFile';
import type { ClientId, ClientRegistry } from '../clients';

export interface FilesDeps {
  homeDir: string;
  clients: ClientRegistry;
}

/** The client's project directory, once the ~/.mino guard the file tools apply has passed. */
function projectRoot(deps: FilesDeps, client: ClientId): string {
  const project = deps.clients.state(client).project;
  if (!project) throw new Error('Open a project first: the file list shows the files of the open project.');
  if (projectGuardFacts(project.path, deps.homeDir).overlapsMinoHome) throw new Error(MINO_HOME_OVERLAP_MESSAGE);
  return project.path;
}

/**
 * The paths the person protected in this project, marked like built-in ones.
 * A rules file that cannot be read marks none here: names are listed either
 * way, and every tool call is refused until it can be read.
 */
async function personProtected(deps: FilesDeps, root: string): Promise<MoreProtected> {
  try {
    const { rules } = await activeRulesFor(deps.homeDir, root);
    return (path) => {
      const rule = protectRuleFor(rules, path);
      return rule ? `your rule ${ruleLabel(rule)}` : null;
    };
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    return () => null;
  }
}

export async function listFiles(deps: FilesDeps, client: ClientId, dir: string): Promise<FileListing> {
  const root = projectRoot(deps, client);
  const listed = await listProjectFiles(root, dir, await personProtected(deps, root));
  if (!listed.ok) throw new Error(listed.reason);
  return listed.value;
}

export async function findFiles(deps: FilesDeps, client: ClientId, query: string): Promise<FileSearch> {
  const root = projectRoot(deps, client);
  return searchProjectFiles(root, query, {}, await personProtected(deps, root));
}
