// The instructions sent with every request, assembled from independent
// sections (the SOUL, the skill catalog, ...), so a feature adds a section
// without knowing the others.
import { skillCatalogText } from '../skills/catalog';
import type { SkillInfo } from '../../../shared/skills';
import type { AnyTool } from '../tools/types';
import { systemPrompt } from './systemPrompt';

/** Joins the non-blank sections with one blank line between them; a single section is returned as it is. */
export function composeInstructions(sections: readonly string[]): string {
  const present = sections.filter((section) => section.trim() !== '');
  return present.map((section, index) => (index < present.length - 1 ? section.trimEnd() : section)).join('\n\n');
}

/**
 * A session's instructions: Mino's own part first (generated from the tools
 * offered and the mode rows), then what the person wrote, then the skills. The
 * catalog is the same in every mode: a skill changes what the model knows,
 * never what it may do.
 */
export function sessionInstructions(tools: readonly AnyTool[], personal: string, skills: readonly SkillInfo[]): string {
  return composeInstructions([systemPrompt(tools), personal, skillCatalogText(skills)]);
}
