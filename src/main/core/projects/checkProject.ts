// Whether a folder can be a project: it must exist, be a readable directory,
// must not contain Mino's own data directory (~/.mino), or an unapproved read
// could send keys and other sessions' history to the model service, and must
// not lie inside a protected directory such as ~/.ssh or a repository's .git.
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { projectOverlapsMinoHome, MINO_HOME_OVERLAP_MESSAGE } from '../fs/projectGuard';
import { protectedDirectoryRuleFor } from '../policy/protectedPaths';

export type ProjectCheck = { ok: true; projectDir: string } | { ok: false; reason: string };

/** Returns the project's real path, or a person-facing reason it cannot be opened. */
export async function checkProjectDir(dir: string, homeDir: string): Promise<ProjectCheck> {
  let realDir: string;
  try {
    realDir = await fs.realpath(dir);
  } catch {
    return { ok: false, reason: `${dir} does not exist (it may have been moved or deleted). Choose another folder.` };
  }
  const stat = await fs.stat(realDir);
  if (!stat.isDirectory()) return { ok: false, reason: `${dir} is not a folder. Choose a project folder.` };
  try {
    await fs.access(realDir, constants.R_OK | constants.X_OK);
  } catch {
    return { ok: false, reason: `${dir} cannot be read with your account's permissions. Check its permissions or choose another folder.` };
  }
  if (await projectOverlapsMinoHome(realDir, homeDir)) {
    return { ok: false, reason: `Mino will not open ${dir} as a project. ${MINO_HOME_OVERLAP_MESSAGE}` };
  }
  const rule = protectedDirectoryRuleFor(realDir);
  if (rule) {
    return {
      ok: false,
      reason:
        `Mino will not open ${dir} as a project: it is inside a protected ${rule} directory, whose files the file tools must never ` +
        'read or write. Open the folder that contains it instead.',
    };
  }
  return { ok: true, projectDir: realDir };
}
