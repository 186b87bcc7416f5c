// Skills as a person sees them: the ones a session offers the model and the
// ones it does not, with why. Display-only; the model never sees these views.
import { z } from 'zod';

/** Where a skill was found: the project's `.agents/skills/` or the person's `~/.mino/skills/`. */
export const SKILL_ORIGINS = ['project', 'personal'] as const;
export const SkillOriginSchema = z.enum(SKILL_ORIGINS);
export type SkillOrigin = z.infer<typeof SkillOriginSchema>;

export const SkillInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  origin: SkillOriginSchema,
  /** Where its SKILL.md is, e.g. ".agents/skills/pdf/SKILL.md" or "~/.mino/skills/pdf/SKILL.md". */
  location: z.string(),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  /** What the skill's author lists; information only, it grants nothing. */
  allowedTools: z.array(z.string()).optional(),
});
export type SkillInfo = z.infer<typeof SkillInfoSchema>;

/** A skill folder that is not offered to the model, and why. */
export const SkillNotOfferedSchema = z.object({
  folder: z.string(),
  origin: SkillOriginSchema,
  location: z.string(),
  reason: z.string(),
});
export type SkillNotOffered = z.infer<typeof SkillNotOfferedSchema>;

export const SkillsViewSchema = z.object({
  skills: z.array(SkillInfoSchema),
  notOffered: z.array(SkillNotOfferedSchema),
});
export type SkillsView = z.infer<typeof SkillsViewSchema>;
