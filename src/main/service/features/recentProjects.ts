// ~/.mino/recent-projects.json: the folders a person opened, newest first.
// Entries whose folder is gone are pruned when the list is read. A damaged
// file only costs the list, so it is treated as empty and replaced on the next open.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { ensureMinoHome, minoPaths, writePrivateFile } from '../../core/config/minoHome';
import { MiB, readPrivateText } from '../../core/config/readPrivateFile';
import { RecentProjectSchema, type RecentProject } from '../../../shared/ipc';
import { errorText, log } from '../../core/log/log';

export const MAX_RECENT_PROJECTS = 10;

const RecentFileSchema = z.object({ projects: z.array(RecentProjectSchema) });

async function readRecent(homeDir: string): Promise<RecentProject[]> {
  try {
    const text = await readPrivateText(minoPaths(homeDir).recentProjects, MiB);
    if (text === null) return [];
    const parsed = RecentFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) log.warn('recent_projects.unreadable', { file: minoPaths(homeDir).recentProjects, error: parsed.error.issues[0]?.message });
    return parsed.success ? parsed.data.projects : [];
  } catch (error) {
    // A missing list is the first run; any other problem starts an empty list rather than blocking the app.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('recent_projects.unreadable', { file: minoPaths(homeDir).recentProjects, error: errorText(error) });
    return [];
  }
}

async function writeRecent(homeDir: string, projects: RecentProject[]): Promise<void> {
  await ensureMinoHome(homeDir);
  await writePrivateFile(minoPaths(homeDir).recentProjects, `${JSON.stringify({ projects }, null, 2)}\n`);
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** The list with missing folders removed (and the file rewritten if any were). */
export async function listRecentProjects(homeDir: string): Promise<RecentProject[]> {
  const projects = await readRecent(homeDir);
  const present: RecentProject[] = [];
  for (const project of projects) {
    if (await isDirectory(project.path)) present.push(project);
  }
  if (present.length !== projects.length) await writeRecent(homeDir, present);
  return present;
}

export async function isRecentProject(homeDir: string, dir: string): Promise<boolean> {
  return (await readRecent(homeDir)).some((project) => project.path === dir);
}

/** Moves (or adds) `projectDir` to the top and returns the new list. */
export async function rememberProject(homeDir: string, projectDir: string, now: Date = new Date()): Promise<RecentProject[]> {
  const entry: RecentProject = { path: projectDir, name: path.basename(projectDir) || projectDir, openedAt: now.toISOString() };
  const others = (await readRecent(homeDir)).filter((project) => project.path !== projectDir);
  const projects = [entry, ...others].slice(0, MAX_RECENT_PROJECTS);
  await writeRecent(homeDir, projects);
  return projects;
}

export async function forgetProject(homeDir: string, projectDir: string): Promise<RecentProject[]> {
  const projects = await readRecent(homeDir);
  const kept = projects.filter((project) => project.path !== projectDir);
  if (kept.length !== projects.length) await writeRecent(homeDir, kept);
  return kept;
}
