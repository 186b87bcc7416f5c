// The window's read-only view of its project's files: one folder of the file
// list, or a search for @mention suggestions. The project is the client's
// own (from the sender, never the payload), and the folder the renderer names
// is judged like a tool's path: normalized, protected rules first, confined.
import type { FileListing, FileSearch } from '../../../shared/files';
import { MINO_HOME_OVERLAP_MESSAGE, projectGuardFacts } from '../../core/fs/projectGuard';
import { listProjectFiles, searchProjectFiles } from '../../core/projects/projectFiles';
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

export async function listFiles(deps: FilesDeps, client: ClientId, dir: string): Promise<FileListing> {
  const listed = await listProjectFiles(projectRoot(deps, client), dir);
  if (!listed.ok) throw new Error(listed.reason);
  return listed.value;
}

export async function findFiles(deps: FilesDeps, client: ClientId, query: string): Promise<FileSearch> {
  return searchProjectFiles(projectRoot(deps, client), query);
}
