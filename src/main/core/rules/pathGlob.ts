// The paths a rule's glob names: pure, and free of the rest of the rules so
// the search tools' worker and the sandbox's walk can judge each entry of a
// project by the person's `protect` rules without loading the shell parser.
import picomatch from 'picomatch';
import type { ProjectPath } from '../fs/projectPath';

const matchers = new Map<string, (path: string) => boolean>();

/**
 * Whether `glob` covers `path` or a folder it is in: `protect secrets` covers
 * `secrets/key.txt`. Case is ignored, as on the file systems that ignore it,
 * so `.ENV` cannot slip past a rule for `.env`.
 */
export function globCovers(glob: string, path: ProjectPath): boolean {
  let matcher = matchers.get(glob);
  if (!matcher) {
    matcher = picomatch(glob, { dot: true, nocase: true });
    matchers.set(glob, matcher);
  }
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  for (let end = segments.length; end > 0; end--) {
    if (matcher(segments.slice(0, end).join('/'))) return true;
  }
  return false;
}
