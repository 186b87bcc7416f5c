// Opening a project for one client: picked in the native dialog or chosen
// from the recent list. A folder that cannot be a project is refused with the
// reason, and the client's state is left as it was.
import * as path from 'node:path';
import { checkProjectDir } from '../../core/projects/checkProject';
import type { OpenProjectResult, Project, RecentProject } from '../../../shared/ipc';
import type { ClientId, ClientRegistry } from '../clients';
import type { FolderPicker } from '../ports';
import { forgetProject, isRecentProject, listRecentProjects, rememberProject } from './recentProjects';

/** What a client's session needs to hear when the client switches project. */
export interface ProjectSwitchHooks {
  /** Closes the client's session if it belongs to another project; throws to refuse the switch. */
  releaseForProject(client: ClientId, projectDir: string): Promise<void>;
  /** The client's project changed (its window title follows). */
  announceCurrent(client: ClientId): Promise<void>;
}

export interface ProjectDeps {
  homeDir: string;
  clients: ClientRegistry;
  pickFolder: FolderPicker;
  sessions?: ProjectSwitchHooks;
}

/** Opens a folder checkProjectDir accepted (`projectDir` is its real path). */
async function open(deps: ProjectDeps, client: ClientId, projectDir: string): Promise<OpenProjectResult> {
  const project: Project = { path: projectDir, name: path.basename(projectDir) || projectDir };
  await deps.sessions?.releaseForProject(client, project.path);
  const recent = await rememberProject(deps.homeDir, project.path);
  deps.clients.state(client).project = project;
  deps.clients.broadcast('projects:recentChanged', recent);
  await deps.sessions?.announceCurrent(client);
  return { opened: true, project };
}

/** A folder the person chose (in the picker, or by dropping it): refused with checkProjectDir's reason, or opened. */
async function openChosen(deps: ProjectDeps, client: ClientId, dir: string): Promise<OpenProjectResult> {
  const check = await checkProjectDir(dir, deps.homeDir);
  if (!check.ok) throw new Error(check.reason);
  return open(deps, client, check.projectDir);
}

export async function pickAndOpenProject(deps: ProjectDeps, client: ClientId): Promise<OpenProjectResult> {
  const picked = await deps.pickFolder(client);
  if (picked === null) return { opened: false };
  return openChosen(deps, client, picked);
}

export const DROPPED_WITHOUT_PATH =
  'Mino could not tell where the dropped item is on disk. Drop a folder from your file manager, or use "Open project…".';

/**
 * A folder dropped on the window. The path comes from the preload, which reads
 * it off the dropped File; it gets the picker's checks, so a file, a folder
 * containing ~/.mino or one inside a protected directory is refused the same way.
 */
export async function openDroppedProject(deps: ProjectDeps, client: ClientId, dir: string): Promise<OpenProjectResult> {
  if (dir === '') throw new Error(DROPPED_WITHOUT_PATH);
  if (!path.isAbsolute(dir)) throw new Error(`${JSON.stringify(dir)} is not a full path, so Mino cannot tell which folder was dropped. ${DROPPED_WITHOUT_PATH}`);
  return openChosen(deps, client, dir);
}

/** Only folders already in the recent list: the renderer cannot name an arbitrary path. */
export async function openRecentProject(deps: ProjectDeps, client: ClientId, dir: string): Promise<OpenProjectResult> {
  if (!(await isRecentProject(deps.homeDir, dir))) {
    throw new Error(`${dir} is not in your recent projects. Use "Open project…" to choose it.`);
  }
  const check = await checkProjectDir(dir, deps.homeDir);
  if (!check.ok) {
    // A folder that vanished or became unusable leaves the list, so it is not offered again.
    // Any other refusal (a turn still running here) says nothing about the folder: it stays.
    deps.clients.broadcast('projects:recentChanged', await forgetProject(deps.homeDir, dir));
    throw new Error(check.reason);
  }
  return open(deps, client, check.projectDir);
}

export function recentProjects(homeDir: string): Promise<RecentProject[]> {
  return listRecentProjects(homeDir);
}
