// The built-in protected paths: the part of the decision no mode can change.
// Fixed in code on purpose; there is no setting that adds or removes a rule.
import type { ProjectPath } from '../fs/projectPath';
import { matchesPattern, nameSpellings, type NamePattern } from './nameAliases';

/** What a tool's target path names: a file, or a directory (list_dir). */
export type TargetType = 'file' | 'directory';

const exactly = (text: string): NamePattern => ({ kind: 'exact', text });
const startingWith = (text: string): NamePattern => ({ kind: 'prefix', text });
const endingWith = (text: string): NamePattern => ({ kind: 'suffix', text });

/** Matched against the last path segment. */
const FILE_NAME_RULES: ReadonlyArray<readonly [rule: string, pattern: NamePattern]> = [
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
const DIRECTORY_RULES: ReadonlyArray<readonly [rule: string, pattern: NamePattern]> = [
  ['.git/', exactly('.git')],
  ['.ssh/', exactly('.ssh')],
  ['.aws/', exactly('.aws')],
  ['.gnupg/', exactly('.gnupg')],
];

/** The 15 rules as the book writes them, for display and documentation. */
export const PROTECTED_RULES: readonly string[] = [
  ...FILE_NAME_RULES.map(([rule]) => rule),
  ...DIRECTORY_RULES.map(([rule]) => rule),
];

/**
 * The rule that protects `path`, or null. Every segment is judged under every
 * spelling a file system may open it by (see nameAliases.ts): any case,
 * trailing dots and spaces, an NTFS stream suffix, HFS-ignorable code points,
 * an 8.3 short name. So `.ENV`, `.env `, `.env::$DATA`, `.git./config` and
 * `GIT~1/config` are all refused, on every platform.
 *
 * `target` says what the last segment names. When it is a directory (or not
 * known to be a file) the last segment is also a directory segment, so
 * listing `.git` is refused; a plain file named `.git` is not inside any
 * protected directory and matches no directory rule.
 */
export function protectedRuleFor(path: ProjectPath, target: TargetType = 'directory'): string | null {
  const segments = path.split(/[\\/]/u).filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return null;

  const fileRule = fileNameRuleFor(segments[segments.length - 1]);
  if (fileRule !== null) return fileRule;

  const directories = target === 'file' ? segments.slice(0, -1) : segments;
  for (const directory of directories) {
    const rule = directoryNameRuleFor(directory);
    if (rule !== null) return rule;
  }
  return null;
}

/** The file-name rule (`.env`, `*.pem`, ...) that one name falls under, in any spelling, or null. */
export function fileNameRuleFor(name: string): string | null {
  return firstRuleFor(name, FILE_NAME_RULES);
}

/** The directory rule (`.git/`, `.ssh/`, ...) that one directory name falls under, in any spelling, or null. */
export function directoryNameRuleFor(name: string): string | null {
  return firstRuleFor(name, DIRECTORY_RULES);
}

function firstRuleFor(name: string, rules: ReadonlyArray<readonly [string, NamePattern]>): string | null {
  const spellings = nameSpellings(name);
  for (const [rule, pattern] of rules) {
    if (spellings.some((spelling) => matchesPattern(spelling, pattern))) return rule;
  }
  return null;
}

/**
 * The directory rule an absolute folder falls under (the folder itself or
 * one of its parents is `.git`, `.ssh`, `.aws` or `.gnupg`, in any spelling),
 * or null. Paths are judged relative to the project, so a project opened
 * inside such a directory would make its contents look unprotected: it is not opened.
 */
export function protectedDirectoryRuleFor(absoluteDir: string): string | null {
  for (const segment of absoluteDir.split(/[\\/]/u)) {
    if (segment === '') continue;
    const rule = directoryNameRuleFor(segment);
    if (rule !== null) return rule;
  }
  return null;
}
