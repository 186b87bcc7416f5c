// The instructions sent with every request, assembled from independent
// sections (the SOUL, the skill catalog, ...), so a feature adds a section
// without knowing the others.

/** Joins the non-blank sections with one blank line between them; a single section is returned as it is. */
export function composeInstructions(sections: readonly string[]): string {
  const present = sections.filter((section) => section.trim() !== '');
  return present.map((section, index) => (index < present.length - 1 ? section.trimEnd() : section)).join('\n\n');
}
