// The names under which a file system may open a file other than its own
// spelling. A project can sit on NTFS, FAT, SMB, HFS+ or APFS on any host, so
// these apply on every platform; folding too much only refuses more.
//
// The rules follow Git's own hardening of `.git` (is_ntfs_dotgit and
// is_hfs_dotgit in Git's path.c and utf8.c), generalized to every name:
// - NTFS and FAT ignore trailing dots and spaces: `.git.` and `.env ` are `.git` and `.env`;
// - NTFS reads `name:stream` (`.env::$DATA`, `.git::$INDEX_ALLOCATION`) as a stream of `name`;
// - HFS+ ignores some format code points (U+200C, U+200E, ...), and normalizes Unicode;
// - both fold case, beyond ASCII (the Kelvin sign is a `k`);
// - Windows gives every long name an 8.3 short name (`GIT~1`, `ENVPRO~1.LOC`), or a hashed one
//   (`GI7EBA~1`) once the plain ones are taken. Those are matched by `isShortNameOf`.

/** The code points HFS+ drops from a name before comparing it (Git's list in utf8.c). */
const HFS_IGNORED = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/gu;

/**
 * A name as a case-insensitive, normalizing file system compares it: NFC,
 * HFS-ignorable code points removed, case folded. Upper- then lower-casing
 * folds the Kelvin sign and the long s to ASCII too; it may over-match a few
 * exotic names, which only refuses more.
 */
export function foldName(name: string): string {
  return name.normalize('NFC').replace(HFS_IGNORED, '').toUpperCase().toLowerCase();
}

/**
 * Every spelling a rule must be checked against for one path segment: the
 * folded name, and the name NTFS would open for it (no stream suffix, no
 * trailing dots or spaces). Empty spellings (a segment of dots) are dropped.
 */
export function nameSpellings(segment: string): string[] {
  const folded = foldName(segment);
  const ntfs = folded.replace(/:.*$/su, '').replace(/[. ]+$/u, '');
  return [...new Set([folded, ntfs])].filter((s) => s !== '');
}

/** How a protected name is written: exactly, as a prefix (`.env.*`) or as a suffix (`*.pem`). */
export type NamePattern =
  | { readonly kind: 'exact'; readonly text: string }
  | { readonly kind: 'prefix'; readonly text: string }
  | { readonly kind: 'suffix'; readonly text: string };

export function matchesPattern(name: string, pattern: NamePattern): boolean {
  switch (pattern.kind) {
    case 'exact':
      return name === pattern.text || isShortNameOf(name, pattern);
    case 'prefix':
      return name.startsWith(pattern.text) || isShortNameOf(name, pattern);
    case 'suffix':
      return name.endsWith(pattern.text) || isShortNameOf(name, pattern);
  }
}

// An 8.3 short name: a base of at most 6 characters, "~", a number (the
// whole thing at most 8 before the dot), and an extension of at most 3.
const SHORT_NAME = /^([^~.]{1,6})~([1-9][0-9]{0,5})(?:\.([^.]{1,3}))?$/u;

/**
 * Whether `name` (folded) may be the Windows short name of a name that
 * `pattern` matches. Windows builds the short base from the long name without
 * its leading dots, dots and spaces, cut to fit before "~N"; the extension is
 * the first 3 characters after the last dot. When four such names are taken it
 * uses the first 2 base characters and 4 hex digits of a hash instead, so any
 * hash is refused (Git computes the one for `.gitmodules`; our patterns match
 * many names, so no single hash would do).
 */
export function isShortNameOf(name: string, pattern: NamePattern): boolean {
  const m = SHORT_NAME.exec(name);
  if (m === null) return false;
  const [, base, digits, extension] = m as unknown as [string, string, string, string | undefined];
  if (base.length + 1 + digits.length > 8) return false;
  const room = Math.min(6, 7 - digits.length);

  if (pattern.kind === 'suffix') {
    // `*.pem`: any base; the extension is the suffix's first 3 characters.
    const wanted = pattern.text.replace(/^\./u, '').slice(0, 3);
    return pattern.text.startsWith('.') && extension === wanted;
  }

  // `.env.local` keeps its last extension; `.git`, whose only dot leads, has none.
  const hasExtension = pattern.kind === 'prefix' || LAST_EXTENSION.test(pattern.text);
  if (extension !== undefined && !hasExtension) return false;

  const stem = shortStem(pattern);
  const plain =
    pattern.kind === 'exact' ? base === stem.slice(0, room) : base.startsWith(stem.slice(0, room));
  const hashed = new RegExp(`^${escapeRegExp(stem.slice(0, 2))}[0-9a-f]{1,4}$`, 'u').test(base);
  return plain || hashed;
}

// A last extension that is not a leading dot: `.txt` in `notes.txt`, none in `.git`.
const LAST_EXTENSION = /(?<=[^.])\.[^.]+$/u;

/** The short-name base of a pattern's fixed text: before its extension, without dots and spaces. */
function shortStem(pattern: NamePattern): string {
  const text = pattern.kind === 'exact' ? pattern.text.replace(LAST_EXTENSION, '') : pattern.text;
  return text.replace(/[. ]/gu, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
