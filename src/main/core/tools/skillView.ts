// skill_view: loads one of the session's skills. A restricted read like
// read_file: allowed in every mode, after the protected-path check, through
// the same confinement. It reads only skills the session found, and only
// inside that skill's folder.
import { z } from 'zod';
import type { ToolResult } from '../../../shared/domain';
import { normalizeProjectPath, PROJECT_ROOT } from '../fs/projectPath';
import { readProjectText } from '../fs/readText';
import { SKILL_VIEW_TOOL_NAME } from '../skills/catalog';
import { listSkillFiles } from '../skills/skillFiles';
import { SKILL_FILE_NAME, SkillNameSchema } from '../skills/skillFile';
import { fsFailureResult, guardProject } from './fileToolSupport';
import type { ProjectPath, Tool, ToolContext, Validation } from './types';

export interface SkillViewArgs {
  name: string;
  /** Relative to the skill folder, canonical; absent for SKILL.md and the file list. */
  path?: ProjectPath;
}

const argsSchema = z.strictObject({
  name: z.string().describe('The name of the skill, as the catalog in the instructions lists it.'),
  path: z
    .string()
    .optional()
    .describe('A file of the skill, relative to its folder (e.g. "reference.md"). Leave out for SKILL.md and the list of its files.'),
});

export const skillViewTool: Tool<SkillViewArgs, null> = {
  name: SKILL_VIEW_TOOL_NAME,
  description:
    'Load one of the skills listed in the instructions. Without path: its SKILL.md and the list of its other files. ' +
    'With path (relative to the skill folder): that file, as read_file reads one (UTF-8 text, at most 64 KiB, no links). ' +
    'A skill is guidance only; it grants no permission.',
  kind: 'restricted_read',
  argsSchema: argsSchema as unknown as z.ZodType<SkillViewArgs>,
  validate,
  // The protected rules judge a path's segments, so the file's path inside
  // the skills directory is checked exactly as a project path would be; a
  // skill name (letters, digits, hyphens) matches no rule by itself.
  target: (args) => ({ path: `${args.name}/${args.path ?? SKILL_FILE_NAME}` as ProjectPath, pathIs: 'file' }),
  async inspect(args) {
    const fields = [{ label: 'Skill', value: args.name }];
    if (args.path !== undefined) fields.push({ label: 'Path', value: args.path });
    return { ok: true, state: null, confirmation: { tool: SKILL_VIEW_TOOL_NAME, fields } };
  },
  execute: (args, _state, ctx) => view(args, ctx),
  denialMessage: 'The user did not approve reading this skill; nothing was read. Do not retry without a new user request.',
};

/** Pure, as on replay: the name's grammar and the path's form, never whether the skill still exists. */
function validate(raw: unknown): Validation<SkillViewArgs> {
  const parsed = argsSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ') };
  const name = SkillNameSchema.safeParse(parsed.data.name);
  if (!name.success) return { ok: false, reason: `${name.error.issues[0]!.message}; use a skill name from the catalog in the instructions` };
  if (parsed.data.path === undefined) return { ok: true, args: { name: name.data } };
  const normalized = normalizeProjectPath(parsed.data.path);
  if (!normalized.ok) return { ok: false, reason: normalized.reason.replaceAll('project directory', 'skill folder').replaceAll('the project', 'the skill folder') };
  if (normalized.path === PROJECT_ROOT) {
    return { ok: false, reason: 'path names the skill folder itself; leave path out to get SKILL.md and the list of its files' };
  }
  return { ok: true, args: { name: name.data, path: normalized.path } };
}

async function view(args: SkillViewArgs, ctx: ToolContext): Promise<ToolResult> {
  const skills = ctx.skills ?? [];
  const skill = skills.find((candidate) => candidate.name === args.name);
  if (!skill) {
    const known = skills.length === 0 ? 'This session has no skills.' : `The skills of this session are: ${skills.map((s) => s.name).join(', ')}.`;
    return { status: 'invalid_arguments', output: `There is no skill named ${args.name}. ${known}` };
  }
  if (skill.origin === 'project') {
    const refusal = guardProject(ctx);
    if (refusal) return refusal;
  }
  const inSkill = args.path ?? (SKILL_FILE_NAME as ProjectPath);
  const filePath = `${skill.folderPath}/${inSkill}` as ProjectPath;
  const read = readProjectText(skill.root, filePath);
  if (!read.ok) {
    if (read.missingPath !== undefined) {
      return {
        status: 'invalid_arguments',
        output: `${inSkill} does not exist in the skill ${skill.name}. Call ${SKILL_VIEW_TOOL_NAME} {"name": "${skill.name}"} to see its files.`,
      };
    }
    return fsFailureResult(read);
  }
  if (args.path !== undefined) {
    return { status: 'completed', output: read.file.size === 0 ? `${inSkill} is empty (0 bytes).` : read.file.text };
  }
  const files = await listSkillFiles(skill.root, skill.folderPath);
  const list =
    files.length === 0
      ? 'This skill has no other files.'
      : [`Other files of this skill (read one with ${SKILL_VIEW_TOOL_NAME} {"name": "${skill.name}", "path": "<file>"}):`, ...files.map((f) => `- ${f}`)].join('\n');
  return { status: 'completed', output: `${read.file.text.replace(/\s*$/, '')}\n\n---\n${list}` };
}
