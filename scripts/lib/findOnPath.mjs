// @ts-check
// The first executable of that name in an absolute PATH folder, for the launch and test scripts.
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';

/**
 * A relative PATH entry is skipped: it would depend on the working directory.
 * @param {string} name
 * @param {string} [searchPath]
 * @returns {string | null}
 */
export function findOnPath(name, searchPath = process.env.PATH ?? '') {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // ignore: not in this folder; try the next
    }
  }
  return null;
}
