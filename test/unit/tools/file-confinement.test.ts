// Property: however a path is built from "..", ".", separators, links and odd
// characters, no file tool reads, lists or writes anything outside the project.
import * as fc from 'fast-check';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeProjectPath } from '../../../src/main/core/fs/projectPath';
import { fileTools } from '../../../src/main/core/tools/fileTools';
import { listTree, makeTempProject, runApproved, SENTINEL, type TempProject } from '../fs/tempProject';

let t: TempProject;
let outsideBefore: Map<string, string>;

// Everything under the temp base except the project itself: names and contents.
async function snapshotOutsideProject(): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  for (const rel of await listTree(t.base)) {
    if (rel === 'project' || rel.startsWith(`project${path.sep}`)) continue;
    // Mino's own write locks live here, outside the project by design; they come and go with each write.
    if (rel === path.join('home', '.mino', 'locks')) continue;
    const abs = path.join(t.base, rel);
    const stat = await fs.lstat(abs);
    snapshot.set(rel, stat.isFile() ? await fs.readFile(abs, 'utf8') : stat.isDirectory() ? '<dir>' : '<other>');
  }
  return snapshot;
}

beforeAll(async () => {
  t = await makeTempProject();
  await t.write('a/b.txt', 'hello inside\n');
  await fs.mkdir(t.file('a/c'));
  await t.write('notes.md', 'hello notes\n');
  await fs.mkdir(path.join(t.outside, 'sub'));
  await fs.writeFile(path.join(t.outside, 'sub', 'x.txt'), `${SENTINEL} sub\n`);
  await fs.writeFile(path.join(t.outside, 'plain.txt'), `${SENTINEL} plain\n`);
  // Names no generated path can produce: if a listing shows one, it listed outside.
  await fs.writeFile(path.join(t.outside, 'outside-only-3b9c.txt'), '');
  await fs.writeFile(path.join(t.outside, 'sub', 'outside-only-8d1e.txt'), '');
  await fs.writeFile(path.join(t.base, 'outside-only-5a7f.txt'), '');
  // A sibling whose name shares the project's prefix.
  await fs.mkdir(path.join(t.base, 'projectile'));
  await fs.writeFile(path.join(t.base, 'projectile', 'secret.txt'), `${SENTINEL} prefix\n`);
  await fs.symlink('../outside', t.file('out'));
  await fs.symlink(t.outside, t.file('abs-out'));
  await fs.symlink('../outside/secret.txt', t.file('secret-link.txt'));
  await fs.symlink('../outside/new.txt', t.file('dangling.txt'));
  await fs.symlink('a', t.file('inlink'));
  await fs.link(path.join(t.outside, 'secret.txt'), t.file('hard.txt'));
  outsideBefore = await snapshotOutsideProject();
});

afterAll(async () => {
  await t.cleanup();
});

// Weighted towards the names that lead somewhere, so escapes are tried often.
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('..', '..', '.', 'a', 'out', 'abs-out', 'inlink', 'outside', 'sub', 'plain.txt', 'x.txt', 'new.txt') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '', 'b.txt', 'c', 'notes.md', 'secret-link.txt', 'dangling.txt', 'hard.txt', 'secret.txt', 'project', 'projectile',
      'home', '.mino', '...', ' ', '%2e%2e', 'C:', 'c:\\', '~', '$HOME', 'é', '\u2024\u2024', '\u0000', '..\u0000',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
const separator = fc.constantFrom('/', '\\', '//', '/./', '\\..\\');
// The temp base is known only at run time, so generated paths carry a marker for it.
const BASE_MARKER = '<BASE>/';
const generatedPath = fc
  .tuple(fc.constantFrom('', '', '/', './', '\\\\', BASE_MARKER), fc.array(fc.tuple(segment, separator), { minLength: 1, maxLength: 6 }))
  .map(([prefix, parts]) => prefix + parts.map(([s, sep], i) => (i === parts.length - 1 ? s : s + sep)).join(''));

function materialize(p: string): string {
  return p.replace(BASE_MARKER, `${t.base}/`);
}

describe('confinement, by property', () => {
  it('normalized paths never leave the project', () => {
    fc.assert(
      fc.property(generatedPath, (raw) => {
        const normalized = normalizeProjectPath(materialize(raw));
        if (!normalized.ok) return;
        const resolved = path.resolve('/project', normalized.path);
        expect(resolved === '/project' || resolved.startsWith('/project/')).toBe(true);
        expect(normalized.path.split('/')).not.toContain('..');
      }),
      { numRuns: 2000 },
    );
  });

  it('no generated path makes a file tool read, list or write outside the project', async () => {
    const [read, list, write, edit] = fileTools;
    await fc.assert(
      fc.asyncProperty(generatedPath, async (raw) => {
        const p = materialize(raw);
        const runs = [
          await runApproved(read, { path: p }, t.ctx),
          await runApproved(list, { path: p }, t.ctx),
          await runApproved(write, { path: p, content: 'PWNED create\n', mode: 'create' }, t.ctx),
          await runApproved(write, { path: p, content: 'PWNED overwrite\n', mode: 'overwrite' }, t.ctx),
          await runApproved(edit, { path: p, old_string: SENTINEL, new_string: 'PWNED edit' }, t.ctx),
        ];
        for (const run of runs) {
          expect(run.result.output).not.toContain(SENTINEL);
          expect(run.result.output).not.toContain('outside-only');
        }
        expect(await snapshotOutsideProject()).toEqual(outsideBefore);
      }),
      { numRuns: 250 },
    );
  });
});
