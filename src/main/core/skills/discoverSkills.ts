// Finds the skills a session offers: folders under the project's
// `.agents/skills/` and the person's `~/.mino/skills/`, each with a SKILL.md
// that passes the format's checks. Everything is read through the same
// confinement as read_file (no links, the 64 KiB cap, protected names never
// opened), so a skill folder cannot lead the program anywhere a file tool
// could not go.
import * as fs from 'node:fs';
import type { SkillInfo, SkillNotOffered, SkillOrigin } from '../../../shared/skills';
import { listProjectDirectory } from '../fs/listDirectory';
import { projectGuardFacts } from '../fs/projectGuard';
import { normalizeProjectPath } from '../fs/projectPath';
import { readProjectText } from '../fs/readText';
import { protectedRuleFor } from '../policy/protectedPaths';
import type { ProjectPath } from '../fs/projectPath';
import { checkSkillFile, SKILL_FILE_NAME } from './skillFile';

/** A skill the session offers, with where its folder is for reading it again. */
export interface Skill extends SkillInfo {
  /** The real directory reads are confined to (the project, or the real home directory). */
  root: string;
  /** The skill folder under `root`, e.g. ".agents/skills/pdf". */
  folderPath: ProjectPath;
  /** How a person names the folder: ".agents/skills/pdf" or "~/.mino/skills/pdf". */
  displayFolder: string;
}

export interface SkillSet {
  /** Offered to the model, by name. */
  skills: Skill[];
  /** Found but not offered, with why, for the person. */
  notOffered: SkillNotOffered[];
}

export const EMPTY_SKILL_SET: SkillSet = { skills: [], notOffered: [] };

/** More folders than this in one skills directory are not read: the catalog goes into every request. */
export const MAX_SKILL_FOLDERS = 100;

interface SkillsDirectory {
  origin: SkillOrigin;
  root: string;
  base: ProjectPath;
  display: string;
}

/** The skills of a project (none without one) and of the person. */
export async function discoverSkills(projectDir: string | null, homeDir: string): Promise<SkillSet> {
  const project = await scanDirectory(projectDir === null ? null : projectDirectory(projectDir, homeDir));
  const personal = await scanDirectory(personalDirectory(homeDir));
  const notOffered = [...project.notOffered];
  const skills = [...project.skills];
  const projectNames = new Set(project.skills.map((skill) => skill.name));
  for (const skill of personal.skills) {
    if (projectNames.has(skill.name)) {
      notOffered.push({
        folder: skill.name,
        origin: 'personal',
        location: skill.location,
        reason: `the project skill of the same name (.agents/skills/${skill.name}) is offered instead`,
      });
    } else {
      skills.push(skill);
    }
  }
  notOffered.push(...personal.notOffered);
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, notOffered };
}

function projectDirectory(projectDir: string, homeDir: string): SkillsDirectory | null {
  // Where the file tools are off (a project that overlaps ~/.mino, or one not
  // named by its real path), project skills are not read either.
  const facts = projectGuardFacts(projectDir, homeDir);
  if (facts.overlapsMinoHome || facts.realProjectDir !== projectDir) return null;
  return { origin: 'project', root: projectDir, base: '.agents/skills' as ProjectPath, display: '.agents/skills' };
}

function personalDirectory(homeDir: string): SkillsDirectory | null {
  let realHome: string;
  try {
    realHome = fs.realpathSync.native(homeDir);
  } catch {
    // No home directory, so no personal skills.
    return null;
  }
  return { origin: 'personal', root: realHome, base: '.mino/skills' as ProjectPath, display: '~/.mino/skills' };
}

async function scanDirectory(dir: SkillsDirectory | null): Promise<SkillSet> {
  if (!dir) return EMPTY_SKILL_SET;
  const listed = await listProjectDirectory(dir.root, dir.base);
  if (!listed.ok) {
    // No skills directory is the ordinary case, not a problem.
    if (listed.missingPath !== undefined) return EMPTY_SKILL_SET;
    return { skills: [], notOffered: [{ folder: dir.display, origin: dir.origin, location: dir.display, reason: firstSentence(listed.reason) }] };
  }
  const skills: Skill[] = [];
  const notOffered: SkillNotOffered[] = [];
  const folders = listed.entries.filter((entry) => entry.kind === 'dir' || entry.kind === 'link');
  for (const entry of folders.slice(0, MAX_SKILL_FOLDERS)) {
    const location = `${dir.display}/${entry.name}/${SKILL_FILE_NAME}`;
    const refuse = (reason: string) => notOffered.push({ folder: entry.name, origin: dir.origin, location, reason });
    if (entry.kind === 'link') {
      refuse('the skill folder is a symbolic link; skills are read only from real folders');
      continue;
    }
    const checked = await checkFolder(dir, entry.name);
    if (checked.ok) skills.push({ ...checked.skill, location });
    else refuse(checked.reason);
  }
  const skipped = folders.length - MAX_SKILL_FOLDERS;
  if (skipped > 0) {
    notOffered.push({
      folder: dir.display,
      origin: dir.origin,
      location: dir.display,
      reason: `${skipped} more skill folders were not read: at most ${MAX_SKILL_FOLDERS} are read from one directory`,
    });
  }
  return { skills, notOffered };
}

async function checkFolder(dir: SkillsDirectory, folder: string): Promise<{ ok: true; skill: Omit<Skill, 'location'> } | { ok: false; reason: string }> {
  const folderPath = normalizeProjectPath(`${dir.base}/${folder}`);
  const filePath = normalizeProjectPath(`${dir.base}/${folder}/${SKILL_FILE_NAME}`);
  if (!folderPath.ok || !filePath.ok || folderPath.path !== `${dir.base}/${folder}`) {
    return { ok: false, reason: 'the folder name is not a usable path' };
  }
  // Never opened, as for read_file: a folder named like a protected one cannot expose its contents.
  const rule = protectedRuleFor(filePath.path, 'file');
  if (rule !== null) return { ok: false, reason: `its path falls under the protected rule ${rule}, so it is never read` };
  const read = readProjectText(dir.root, filePath.path);
  if (!read.ok) {
    if (read.missingPath === filePath.path) return { ok: false, reason: `the folder has no ${SKILL_FILE_NAME}` };
    return { ok: false, reason: firstSentence(read.reason) };
  }
  const checked = await checkSkillFile(read.file.text, folder);
  if (!checked.ok) return checked;
  const { fields } = checked;
  return {
    ok: true,
    skill: {
      name: fields.name,
      description: fields.description,
      origin: dir.origin,
      ...(fields.license !== undefined ? { license: fields.license } : {}),
      ...(fields.compatibility !== undefined ? { compatibility: fields.compatibility } : {}),
      ...(fields.allowedTools !== undefined ? { allowedTools: fields.allowedTools } : {}),
      root: dir.root,
      folderPath: folderPath.path,
      displayFolder: `${dir.display}/${folder}`,
    },
  };
}

/** The filesystem layer's reasons end with advice for the model; a person needs only what happened. */
function firstSentence(reason: string): string {
  const end = reason.search(/\.(\s|$)/);
  return end === -1 ? reason : reason.slice(0, end);
}

/** What a person is shown for skills not offered, one line each (Settings, the CLI's stderr). */
export function notOfferedLine(entry: SkillNotOffered): string {
  return `skill ${JSON.stringify(entry.folder)} (${entry.origin}, ${entry.location}) is not offered: ${entry.reason}.`;
}

/** The person's view of a skill set. */
export function skillsView(set: SkillSet): { skills: SkillInfo[]; notOffered: SkillNotOffered[] } {
  return {
    skills: set.skills.map(({ root: _root, folderPath: _folder, displayFolder: _display, ...info }) => info),
    notOffered: set.notOffered,
  };
}
