// The built-in suites (`mino eval --suite NAME`): evals/<NAME>/cases.yaml in
// the repository, carried beside the built command as out/cli/evals/
// (vite.cli.config.mts), found beside this code wherever it runs: the source
// tree (tests, tsx), or the bundle and its chunks folder.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const SUITE_CASE_FILE = 'cases.yaml';

/** The folders that may hold the suites, nearest first. */
function suiteRoots(): string[] {
  return [path.join(__dirname, 'evals'), path.join(path.dirname(__dirname), 'evals'), path.resolve(__dirname, '../../../../evals')];
}

/** The case file of suite `name`; throws naming the suites there are when there is no such suite. */
export async function suiteCaseFile(name: string): Promise<string> {
  const known = new Set<string>();
  for (const root of suiteRoots()) {
    const file = path.join(root, name, SUITE_CASE_FILE);
    if (/^[a-z0-9-]+$/.test(name) && (await fs.stat(file).then((s) => s.isFile(), () => false))) return file;
    for (const entry of await fs.readdir(root, { withFileTypes: true }).catch(() => [])) if (entry.isDirectory()) known.add(entry.name);
  }
  const list = known.size === 0 ? 'none was found beside the mino command' : `the suites are: ${[...known].sort().join(', ')}`;
  throw new Error(`There is no built-in suite named "${name}"; ${list}.`);
}
