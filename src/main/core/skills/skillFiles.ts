// The other files of a skill folder, as skill_view lists them: walked through
// the confined directory listing, bounded in depth and count, with links and
// protected names shown as unreadable rather than followed or opened.
import { protectedRuleFor } from '../policy/protectedPaths';
import { displayName, listProjectDirectory } from '../fs/listDirectory';
import type { ProjectPath } from '../fs/projectPath';
import { SKILL_FILE_NAME } from './skillFile';

export const MAX_LISTED_FILES = 200;
const MAX_DEPTH = 4;

/** One line per file, relative to the skill folder, and a last line for what was left out. */
export async function listSkillFiles(root: string, folderPath: ProjectPath): Promise<string[]> {
  const lines: string[] = [];
  let omitted = 0;
  const add = (line: string) => {
    if (lines.length < MAX_LISTED_FILES) lines.push(line);
    else omitted += 1;
  };
  const walk = async (relative: string, depth: number): Promise<void> => {
    const dir = (relative === '' ? folderPath : `${folderPath}/${relative}`) as ProjectPath;
    const listed = await listProjectDirectory(root, dir);
    if (!listed.ok) {
      add(`${relative}/ (could not be listed)`);
      return;
    }
    // Files before subfolders, so the top level reads first.
    const entries = [...listed.entries].sort((a, b) => Number(a.kind === 'dir') - Number(b.kind === 'dir'));
    for (const entry of entries) {
      const inSkill = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const shown = displayName(inSkill);
      const fullPath = `${folderPath}/${inSkill}` as ProjectPath;
      if (entry.kind === 'dir') {
        if (protectedRuleFor(fullPath, 'directory') !== null) add(`${shown}/ (protected; not listed)`);
        else if (depth >= MAX_DEPTH) add(`${shown}/ (not listed: deeper than ${MAX_DEPTH} levels)`);
        else await walk(inSkill, depth + 1);
      } else if (entry.kind === 'link') {
        add(`${shown} (symbolic link; cannot be read)`);
      } else if (entry.kind === 'file') {
        if (relative === '' && entry.name === SKILL_FILE_NAME) continue;
        add(protectedRuleFor(fullPath, 'file') !== null ? `${shown} (protected; cannot be read)` : shown);
      }
    }
  };
  await walk('', 1);
  if (omitted > 0) lines.push(`... ${omitted} more not shown.`);
  return lines;
}
