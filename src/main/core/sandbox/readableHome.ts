// Which folders of the person's homes a sandboxed command may read. Each home
// is shown empty but for these (see bwrapArgs.ts and seatbeltProfile.ts). The
// list is the person's (Settings, `sandboxReadable`) or the defaults of
// shared/sandboxReadable.ts; nothing the model or a project says reaches it.
// Some entries are never honoured, whoever listed them: those that would show
// the whole home, Mino's own data (the API key, every session's history), or
// what a protected rule covers.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_SANDBOX_READABLE, sandboxReadablePaths } from '../../../shared/sandboxReadable';
import { MINO_DIR_NAME } from '../config/minoHome';
import { fileNameRuleFor, protectedDirectoryRuleFor } from '../policy/protectedPaths';

export interface ReadableHome {
  /** Real paths to show read-only, parents before their children. */
  readable: string[];
  /**
   * Listed paths inside a home that lead to their entry by a symbolic link
   * (~/.nvm -> /opt/nvm): recreated in the empty home so the names the
   * person's PATH uses still work.
   */
  links: Array<{ path: string; target: string }>;
  /** Entries left out, each with the reason (for Settings to show). */
  skipped: Array<{ entry: string; reason: string }>;
}

/**
 * Why an absolute path may not be shown to a sandboxed command, or null when
 * it may. `homes` are real paths. Checks names only: call it with both the
 * path as listed and its real path.
 */
export function readableEntryProblem(entry: string, homes: readonly string[]): string | null {
  if (!path.isAbsolute(entry)) return 'is not an absolute path';
  const normal = path.resolve(entry);
  if (normal === path.parse(normal).root) return 'is the whole file system';
  for (const home of homes) {
    if (normal === home) return 'is your home folder itself, which would show every secret in it: list the folders inside it that your tools need';
    if (isSameOrInside(normal, path.join(home, MINO_DIR_NAME))) return "is Mino's own data folder (~/.mino) or inside it, where your API key and the history of every session are kept";
    if (isSameOrInside(home, normal)) return `contains the home folder ${home}, and with it Mino's own data folder (~/.mino)`;
  }
  const rule = protectedDirectoryRuleFor(normal) ?? fileNameRuleFor(path.basename(normal));
  if (rule !== null) return `is covered by the protected rule ${rule}, whose files a sandboxed command never reads`;
  return null;
}

/**
 * The folders (or files) to show, from absolute `entries` (default: the
 * defaults in every home). An entry that does not exist is skipped; one whose
 * real path lies outside every home is still shown, since the person listed it.
 */
export async function resolveReadableHome(entries: readonly string[] | undefined, homes: readonly string[]): Promise<ReadableHome> {
  const listed = [...new Set(entries ?? sandboxReadablePaths(DEFAULT_SANDBOX_READABLE, homes))];
  const absent = await absentInHomes(listed, homes);
  // Looked up at once: each lookup waits on the disk, not on the others.
  const found = await Promise.all(listed.map((entry) => lookUp(entry, absent)));
  const result: ReadableHome = { readable: [], links: [], skipped: [] };
  for (const [i, entry] of listed.entries()) {
    const lookup = found[i]!;
    if ('problem' in lookup) {
      result.skipped.push({ entry, reason: lookup.problem });
      continue;
    }
    const real = lookup.real;
    const problem = readableEntryProblem(entry, homes) ?? readableEntryProblem(real, homes);
    if (problem !== null) {
      result.skipped.push({ entry, reason: problem });
      continue;
    }
    if (!result.readable.includes(real)) result.readable.push(real);
    const normal = path.resolve(entry);
    if (normal !== real && homes.some((home) => isSameOrInside(normal, home))) result.links.push({ path: normal, target: real });
  }
  result.readable.sort(byDepth);
  // A link inside a folder that is shown, or inside another link, is there already: what holds it shows it.
  const shownElsewhere = (link: { path: string }) =>
    result.readable.some((dir) => isSameOrInside(link.path, dir)) || result.links.some((other) => other !== link && isSameOrInside(link.path, other.path));
  result.links = result.links.filter((link) => !shownElsewhere(link)).sort((a, b) => byDepth(a.path, b.path));
  return result;
}

async function lookUp(entry: string, absent: ReadonlySet<string>): Promise<{ real: string } | { problem: string }> {
  const missing = (code: string) => ({ problem: `cannot be shown (${code}): it does not exist or cannot be reached` });
  if (!path.isAbsolute(entry)) return { problem: 'is not an absolute path' };
  if (absent.has(entry)) return missing('ENOENT');
  try {
    return { real: await fs.realpath(entry) };
  } catch (error) {
    return missing((error as NodeJS.ErrnoException).code ?? String(error));
  }
}

/**
 * The entries whose first folder in a home is not there: most defaults name
 * toolchains this person never installed, and one listing of each home rules
 * them out without a lookup each.
 */
async function absentInHomes(entries: readonly string[], homes: readonly string[]): Promise<Set<string>> {
  const listings = new Map<string, Set<string>>();
  for (const home of homes) {
    try {
      listings.set(home, new Set(await fs.readdir(home)));
    } catch {
      // ignore: a home that cannot be listed rules nothing out; each entry in it is looked up on its own
    }
  }
  const absent = new Set<string>();
  for (const entry of entries) {
    if (!path.isAbsolute(entry)) continue;
    const normal = path.resolve(entry);
    const home = homes.find((h) => normal !== h && isSameOrInside(normal, h));
    const listing = home === undefined ? undefined : listings.get(home);
    if (home !== undefined && listing !== undefined && !listing.has(path.relative(home, normal).split(path.sep)[0]!)) absent.add(entry);
  }
  return absent;
}

/** Parents before their children, so a later mount inside an earlier one is not hidden by it. */
export function byDepth(a: string, b: string): number {
  return a.split(path.sep).length - b.split(path.sep).length || (a < b ? -1 : a > b ? 1 : 0);
}

export function isSameOrInside(candidate: string, dir: string): boolean {
  return candidate === dir || candidate.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}
