// One SKILL.md: its YAML front matter, checked against the Agent Skills
// format, and its Markdown body. Pure: text in, a skill's fields or the reason
// it is not offered out. The YAML parser is loaded on first use: most runs
// find no skills, and loading it costs `mino exec` start-up time.
import { z } from 'zod';

export const SKILL_FILE_NAME = 'SKILL.md';
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** Lowercase letters, digits and single hyphens between them, as the format defines a name. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const SkillNameSchema = z
  .string({ error: 'name must be text' })
  .min(1, 'name is empty')
  .max(MAX_NAME_LENGTH, `name is longer than ${MAX_NAME_LENGTH} characters`)
  .regex(SKILL_NAME_PATTERN, 'name may contain only lowercase letters, digits and single hyphens between them (e.g. "pdf-tools")');

// Fields the format does not define are ignored: other agents add their own.
const FrontMatterSchema = z.object({
  name: SkillNameSchema,
  description: z
    .string({ error: 'description must be text' })
    .refine((s) => s.trim() !== '', 'description is empty')
    .refine((s) => s.length <= MAX_DESCRIPTION_LENGTH, `description is longer than ${MAX_DESCRIPTION_LENGTH} characters`),
  license: z.string({ error: 'license must be text' }).optional(),
  compatibility: z
    .string({ error: 'compatibility must be text' })
    .max(MAX_COMPATIBILITY_LENGTH, `compatibility is longer than ${MAX_COMPATIBILITY_LENGTH} characters`)
    .optional(),
  metadata: z.record(z.string(), z.string({ error: 'metadata values must be text' }), { error: 'metadata must be a map of text values' }).optional(),
  'allowed-tools': z.string({ error: 'allowed-tools must be text (tool names separated by spaces)' }).optional(),
});

export interface SkillFields {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** Information for the person only: a skill grants nothing. */
  allowedTools?: string[];
}

export type SkillFileCheck = { ok: true; fields: SkillFields; body: string } | { ok: false; reason: string };

/** Parses and validates the text of `<folder>/SKILL.md`. */
export async function checkSkillFile(text: string, folder: string): Promise<SkillFileCheck> {
  const split = splitFrontMatter(text);
  if (!split.ok) return split;
  const { parseDocument } = await import('yaml');
  const document = parseDocument(split.frontMatter, { uniqueKeys: true });
  if (document.errors.length > 0) {
    return { ok: false, reason: `the front matter is not valid YAML (${firstLine(document.errors[0]!.message)})` };
  }
  let data: unknown;
  try {
    // Aliases are capped, so a "billion laughs" front matter cannot blow up.
    data = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    return { ok: false, reason: `the front matter is not valid YAML (${firstLine(error instanceof Error ? error.message : String(error))})` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, reason: 'the front matter must be a YAML map with at least name and description' };
  }
  const parsed = FrontMatterSchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((issue) => describeIssue(issue)).join('; ') };
  }
  const meta = parsed.data;
  if (meta.name !== folder) {
    return { ok: false, reason: `name "${meta.name}" does not match its folder name "${folder}"; they must be equal` };
  }
  const allowedTools = meta['allowed-tools']?.split(/\s+/).filter((tool) => tool !== '');
  return {
    ok: true,
    fields: {
      name: meta.name,
      description: meta.description.trim(),
      ...(meta.license !== undefined ? { license: meta.license } : {}),
      ...(meta.compatibility !== undefined ? { compatibility: meta.compatibility } : {}),
      ...(meta.metadata !== undefined ? { metadata: meta.metadata } : {}),
      ...(allowedTools !== undefined && allowedTools.length > 0 ? { allowedTools } : {}),
    },
    body: split.body,
  };
}

function splitFrontMatter(text: string): { ok: true; frontMatter: string; body: string } | { ok: false; reason: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') {
    return { ok: false, reason: 'SKILL.md does not start with YAML front matter (a line "---", the fields, then "---")' };
  }
  const end = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  if (end === -1) return { ok: false, reason: 'the front matter is not closed by a line "---"' };
  return { ok: true, frontMatter: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path[0];
  if (issue.code === 'invalid_type' && issue.input === undefined && typeof field === 'string') return `${field} is missing`;
  return issue.message;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
