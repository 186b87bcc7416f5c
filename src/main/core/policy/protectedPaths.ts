// The built-in protected paths: the part of the decision no mode can change.
// Fixed in code on purpose; there is no setting that adds or removes a rule.
import type { ProjectPath } from '../tools/types';

/** What a tool's target path names: a file, or a directory (list_dir). */
export type TargetType = 'file' | 'directory';

type Matcher = (segment: string) => boolean;

const exactly = (name: string): Matcher => (segment) => segment === name;
const startingWith = (prefix: string): Matcher => (segment) => segment.startsWith(prefix);
const endingWith = (suffix: string): Matcher => (segment) => segment.endsWith(suffix);

/** Matched against the last path segment. */
const FILE_NAME_RULES: ReadonlyArray<readonly [rule: string, matches: Matcher]> = [
  ['.env', exactly('.env')],
  ['.env.*', startingWith('.env.')],
  ['*.pem', endingWith('.pem')],
  ['*.key', endingWith('.key')],
  ['*.p12', endingWith('.p12')],
  ['id_rsa*', startingWith('id_rsa')],
  ['id_ecdsa*', startingWith('id_ecdsa')],
  ['id_ed25519*', startingWith('id_ed25519')],
  ['.netrc', exactly('.netrc')],
  ['.npmrc', exactly('.npmrc')],
  ['.pypirc', exactly('.pypirc')],
];

/** Matched against every directory segment of the path. */
const DIRECTORY_RULES: ReadonlyArray<readonly [rule: string, name: string]> = [
  ['.git/', '.git'],
  ['.ssh/', '.ssh'],
  ['.aws/', '.aws'],
  ['.gnupg/', '.gnupg'],
];

/** The 15 rules as the book writes them, for display and documentation. */
export const PROTECTED_RULES: readonly string[] = [
  ...FILE_NAME_RULES.map(([rule]) => rule),
  ...DIRECTORY_RULES.map(([rule]) => rule),
];

/**
 * The rule that protects `path`, or null. Case-insensitive, because the
 * default macOS file system is: `.ENV` opens the same file as `.env`.
 *
 * `target` says what the last segment names. When it is a directory (or not
 * known to be a file) the last segment is also a directory segment, so
 * listing `.git` is refused; a plain file named `.git` is not inside any
 * protected directory and matches no directory rule.
 */
export function protectedRuleFor(path: ProjectPath, target: TargetType = 'directory'): string | null {
  const segments = foldCase(path).split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return null;

  const last = segments[segments.length - 1];
  for (const [rule, matches] of FILE_NAME_RULES) {
    if (matches(last)) return rule;
  }

  const directories = target === 'file' ? segments.slice(0, -1) : segments;
  for (const [rule, name] of DIRECTORY_RULES) {
    if (directories.includes(name)) return rule;
  }
  return null;
}

/**
 * Case-insensitive file systems fold case the Unicode way, so the Kelvin
 * sign opens `.key` and a long s opens `.ssh`. Upper- then lower-casing folds
 * those to ASCII too; it may over-match a few exotic names, which only refuses more.
 */
function foldCase(text: string): string {
  return text.toUpperCase().toLowerCase();
}

/**
 * The directory rule an absolute folder falls under (the folder itself or
 * one of its parents is `.git`, `.ssh`, `.aws` or `.gnupg`), or null. Paths
 * are judged relative to the project, so a project opened inside such a
 * directory would make its contents look unprotected: it is not opened.
 */
export function protectedDirectoryRuleFor(absoluteDir: string): string | null {
  const segments = foldCase(absoluteDir).split(/[\\/]/);
  for (const [rule, name] of DIRECTORY_RULES) {
    if (segments.includes(name)) return rule;
  }
  return null;
}
