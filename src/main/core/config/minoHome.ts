// The layout of ~/.mino and the private-file rules for everything in it:
// the directory is 0700, its files 0600, whatever the umask says.
import { randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const MINO_DIR_NAME = '.mino';
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export interface MinoPaths {
  /** ~/.mino */
  root: string;
  /** ~/.mino/config.json */
  config: string;
  /** ~/.mino/SOUL.md */
  soul: string;
  /** ~/.mino/sessions */
  sessions: string;
  /** ~/.mino/mcp.json */
  mcp: string;
  /** ~/.mino/recent-projects.json */
  recentProjects: string;
  /** ~/.mino/secrets.json (API key encrypted by the desktop app) */
  secrets: string;
  /** ~/.mino/locks: the file and session locks shared by every Mino process */
  locks: string;
  /** ~/.mino/logs: the desktop app's diagnostic trail, mino-YYYY-MM-DD.log, a week kept */
  logs: string;
}

export function minoPaths(homeDir: string): MinoPaths {
  const root = path.join(homeDir, MINO_DIR_NAME);
  return {
    root,
    config: path.join(root, 'config.json'),
    soul: path.join(root, 'SOUL.md'),
    sessions: path.join(root, 'sessions'),
    mcp: path.join(root, 'mcp.json'),
    recentProjects: path.join(root, 'recent-projects.json'),
    secrets: path.join(root, 'secrets.json'),
    locks: path.join(root, 'locks'),
    logs: path.join(root, 'logs'),
  };
}

/** The home directory, honouring HOME so tests and scripts can point it elsewhere. */
export function resolveHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME ?? env.USERPROFILE;
  if (!home) throw new Error('Cannot find your home directory: set HOME and start Mino again.');
  return home;
}

/** Creates a private directory (0700) if missing and tightens it if it exists. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.chmod(dir, PRIVATE_DIR_MODE);
}

/** Creates ~/.mino and ~/.mino/sessions, both 0700. */
export async function ensureMinoHome(homeDir: string): Promise<MinoPaths> {
  const paths = minoPaths(homeDir);
  await ensurePrivateDir(paths.root);
  await ensurePrivateDir(paths.sessions);
  return paths;
}

/**
 * Replaces a small private file atomically (temp file, fsync, rename, fsync
 * directory), so a crash leaves the old or the new content, never a mixture.
 */
export async function writePrivateFile(file: string, content: string): Promise<void> {
  const dir = path.dirname(file);
  // Random, so two writers in the same process and millisecond never collide on the exclusive create.
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await fs.chmod(file, PRIVATE_FILE_MODE);
  const dirHandle = await fs.open(dir, constants.O_RDONLY);
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}

/** ensurePrivateDir for the synchronous callers (the locks, taken on the write path). */
export function ensurePrivateDirSync(dir: string): void {
  fsSync.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fsSync.chmodSync(dir, PRIVATE_DIR_MODE);
}
