// Characters a person cannot see, or that change how the text around them is
// shown: bidirectional controls (which can make `grantAll();` read as if it
// sat inside an `if`), zero-width and other format characters, and control
// characters. The one owner of that class and of how it is shown: every place
// a person reads or decides (dialog fields, preview, diff, tool cards, the CLI
// transcript) shows each one as a visible mark naming its code point,
// `⟨U+202E⟩`. Raw values stay raw where a program reads them (`--json`, logs).

/**
 * C0 controls except tab and newline, DEL and the C1 controls (\p{Cc}); every
 * format character (\p{Cf}: bidi embeddings, overrides, isolates and marks,
 * zero-width space, joiners, word joiner, BOM, soft hyphen, tags ...); and the
 * line and paragraph separators, which break a line where none is seen.
 */
const HIDDEN = /(?![\t\n])[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** Names for the characters a warning most often has to explain. */
const NAMES: Readonly<Record<number, string>> = {
  0x061c: 'arabic letter mark',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero-width no-break space',
  0x00ad: 'soft hyphen',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x000d: 'carriage return',
  0x001b: 'escape',
  0x007f: 'delete',
};

/** `U+202E`: how a code point is named in marks and warnings. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `⟨U+202E⟩`: the visible mark shown in place of one hidden character. */
export function hiddenCharacterMark(codePoint: number): string {
  return `⟨${codePointLabel(codePoint)}⟩`;
}

export function hasHiddenCharacters(text: string): boolean {
  HIDDEN.lastIndex = 0;
  return HIDDEN.test(text);
}

/** The text as a person should see it: every hidden character replaced by its mark. */
export function markHiddenCharacters(text: string): string {
  return replaceHiddenCharacters(text, (c) => hiddenCharacterMark(c.codePointAt(0)!));
}

/** `text` with each hidden character (one code point, maybe two UTF-16 units) replaced by `replace(character)`. */
export function replaceHiddenCharacters(text: string, replace: (character: string) => string): string {
  return text.replace(HIDDEN, replace);
}

/** The distinct hidden code points in `text`, in the order they first appear. */
export function hiddenCodePoints(text: string): number[] {
  const seen = new Set<number>();
  for (const match of text.matchAll(HIDDEN)) seen.add(match[0].codePointAt(0)!);
  return [...seen];
}

/** `right-to-left override (U+202E)`; `control character (U+0007)` for one without a common name. */
export function describeCodePoint(codePoint: number): string {
  const name = NAMES[codePoint] ?? (/\p{Cc}/u.test(String.fromCodePoint(codePoint)) ? 'control character' : 'format character');
  return `${name} (${codePointLabel(codePoint)})`;
}

/**
 * The warning for content that holds hidden characters, naming where they are
 * and which they are, or null when there are none. `parts` pairs a name a
 * person recognizes ("Content", "the diff") with its text.
 */
export function hiddenCharacterWarning(parts: ReadonlyArray<readonly [where: string, text: string]>): string | null {
  const places: string[] = [];
  const codePoints = new Set<number>();
  for (const [where, text] of parts) {
    const found = hiddenCodePoints(text);
    if (found.length === 0) continue;
    places.push(where);
    for (const codePoint of found) codePoints.add(codePoint);
  }
  if (places.length === 0) return null;
  const listed = [...codePoints].slice(0, MAX_LISTED).map(describeCodePoint);
  const more = codePoints.size > MAX_LISTED ? ` and ${codePoints.size - MAX_LISTED} more` : '';
  return (
    `Hidden characters: ${listing(places)} contain${places.length === 1 ? 's' : ''} invisible or bidirectional characters ` +
    `(${listed.join(', ')}${more}), shown here as ⟨U+…⟩ marks. What is displayed may differ from what is written; ` +
    `approve only if you expect these characters.`
  );
}

const MAX_LISTED = 6;

function listing(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
