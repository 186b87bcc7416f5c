// IgnoreRules says what git says: each verdict on a real tree is checked
// against `git check-ignore` run on the same tree.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IgnoreRules } from '../../../src/main/core/fs/ignoreRules';
import { makeTempHome, type TempHome } from '../../support/tempHome';

const run = promisify(execFile);

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome({ prefix: 'ignore' });
});
afterEach(async () => {
  await temp.cleanup();
});

async function writeAll(files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) await temp.write(rel, content);
}

interface Verdict {
  path: string;
  isDirectory: boolean;
  ignored: boolean;
}

/** Walks the whole tree as a search would, entering each folder before judging what is in it. */
async function walk(rules: IgnoreRules, folder = ''): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  const entries = await fs.readdir(path.join(temp.project, folder), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (folder === '' && entry.name === '.git') continue;
    const rel = folder === '' ? entry.name : `${folder}/${entry.name}`;
    const isDirectory = entry.isDirectory();
    const ignored = rules.ignores(rel, isDirectory);
    verdicts.push({ path: rel, isDirectory, ignored });
    if (isDirectory) {
      // A walk does not enter an ignored folder; its verdicts below still say "ignored".
      if (!ignored) await rules.enterFolder(rel);
      verdicts.push(...(await walk(rules, rel)));
    }
  }
  return verdicts;
}

/** The paths git ignores among `paths`. */
async function gitIgnored(paths: string[]): Promise<Set<string>> {
  const child = execFile('git', ['-c', 'core.excludesFile=/dev/null', 'check-ignore', '--no-index', '--stdin'], { cwd: temp.project });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stdin?.end(paths.join('\n') + '\n');
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    // check-ignore exits 1 when nothing is ignored.
    child.on('close', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`git check-ignore exited ${code}`))));
  });
  return new Set(output.join('').split('\n').filter(Boolean));
}

async function expectSameAsGit(): Promise<Verdict[]> {
  await run('git', ['init', '--quiet'], { cwd: temp.project });
  const verdicts = await walk(await IgnoreRules.forProject(temp.project));
  // Folders without a trailing '/': git finds them to be folders on disk (with one, `vendor/*` would match `vendor/`).
  const byGit = await gitIgnored(verdicts.map((v) => v.path));
  const ours = verdicts.filter((v) => v.ignored).map((v) => v.path);
  expect(ours.sort()).toEqual([...byGit].sort());
  return verdicts;
}

function ignoredPaths(verdicts: Verdict[]): string[] {
  return verdicts.filter((v) => v.ignored).map((v) => v.path).sort();
}

describe('IgnoreRules', () => {
  it('applies root patterns, negation, anchors and folder-only patterns as git does', async () => {
    await writeAll({
      '.gitignore': ['*.log', '!keep.log', 'build/', '/only-root.txt', 'docs/*.md', '!docs/README.md', 'node_modules', '# a comment', '\\#hash.txt', ''].join('\n'),
      'a.log': 'x', 'keep.log': 'x', 'src/b.log': 'x', 'src/keep.log': 'x', 'src/index.ts': 'x',
      'build/out.js': 'x', 'src/build': 'a file named build is not a folder',
      'only-root.txt': 'x', 'src/only-root.txt': 'x', 'docs/guide.md': 'x', 'docs/README.md': 'x', 'docs/deep/x.md': 'x',
      'node_modules/pkg/index.js': 'x', 'src/node_modules/pkg/index.js': 'x', '#hash.txt': 'x',
    });
    const verdicts = await expectSameAsGit();
    expect(ignoredPaths(verdicts)).toEqual([
      '#hash.txt', 'a.log', 'build', 'build/out.js', 'docs/guide.md', 'node_modules', 'node_modules/pkg', 'node_modules/pkg/index.js',
      'only-root.txt', 'src/b.log', 'src/node_modules', 'src/node_modules/pkg', 'src/node_modules/pkg/index.js',
    ]);
  });

  it('reads nested .gitignore files relative to their folder, the deepest one deciding', async () => {
    await writeAll({
      '.gitignore': '*.log\ncache/\n',
      'sub/.gitignore': '!debug.log\n/anchored.txt\nlocal/\n*.tmp\n!cache/\n',
      'sub/debug.log': 'x', 'sub/other.log': 'x', 'sub/anchored.txt': 'x', 'sub/deeper/anchored.txt': 'x',
      'sub/local/a.txt': 'x', 'sub/x.tmp': 'x', 'x.tmp': 'x', 'anchored.txt': 'x',
      'cache/a.txt': 'x', 'sub/cache/a.txt': 'x', 'sub/deeper/cache/a.txt': 'x',
    });
    const verdicts = await expectSameAsGit();
    expect(ignoredPaths(verdicts)).toEqual(['cache', 'cache/a.txt', 'sub/anchored.txt', 'sub/local', 'sub/local/a.txt', 'sub/other.log', 'sub/x.tmp']);
  });

  it('never re-includes below an ignored folder, whatever a deeper .gitignore says', async () => {
    await writeAll({
      '.gitignore': 'build/\nvendor/*\n!vendor/keep/\n',
      'build/.gitignore': '!*\n', 'build/a.txt': 'x',
      'vendor/drop/a.txt': 'x', 'vendor/keep/a.txt': 'x', 'vendor/keep/.gitignore': '!../drop/\n',
    });
    const verdicts = await expectSameAsGit();
    expect(ignoredPaths(verdicts)).toEqual(['build', 'build/.gitignore', 'build/a.txt', 'vendor/drop', 'vendor/drop/a.txt']);
  });

  it('applies .git/info/exclude below every .gitignore', async () => {
    await writeAll({ 'notes.txt': 'x', 'sub/notes.txt': 'x', 'sub/.gitignore': '!notes.txt\n', 'other.txt': 'x' });
    await run('git', ['init', '--quiet'], { cwd: temp.project });
    await fs.writeFile(path.join(temp.project, '.git', 'info', 'exclude'), 'notes.txt\n');
    const verdicts = await expectSameAsGit();
    expect(ignoredPaths(verdicts)).toEqual(['notes.txt']);
  });

  it('does not read a .gitignore that is a symbolic link, as git does not', async () => {
    await writeAll({ 'real-rules': 'a.txt\n', 'a.txt': 'x' });
    await fs.symlink('real-rules', path.join(temp.project, '.gitignore'));
    const rules = await IgnoreRules.forProject(temp.project);
    expect(rules.ignores('a.txt', false)).toBe(false);
  });

  it('applies the rules of a folder only once the walk has entered it', async () => {
    await writeAll({ 'sub/.gitignore': 'a.txt\n', 'sub/a.txt': 'x' });
    const rules = await IgnoreRules.forProject(temp.project);
    expect(rules.ignores('sub/a.txt', false)).toBe(false);
    await rules.enterFolder('sub');
    expect(rules.ignores('sub/a.txt', false)).toBe(true);
  });

  it('works without a .git folder or any rules file', async () => {
    await writeAll({ 'a.txt': 'x' });
    const rules = await IgnoreRules.forProject(temp.project);
    expect(rules.ignores('a.txt', false)).toBe(false);
    await rules.enterFolder('missing/folder');
    expect(rules.ignores('missing/folder/a.txt', false)).toBe(false);
  });

  it('takes rules text from a caller that read it itself', () => {
    const rules = IgnoreRules.fromText(temp.project, 'excluded.txt\n');
    rules.addRules('', 'dist/\n');
    rules.addRules('pkg', '*.gen.ts\n');
    expect(rules.ignores('excluded.txt', false)).toBe(true);
    expect(rules.ignores('dist', true)).toBe(true);
    expect(rules.ignores('pkg/a.gen.ts', false)).toBe(true);
    expect(rules.ignores('a.gen.ts', false)).toBe(false);
  });

  it('refuses a path that is not project-relative with / separators', async () => {
    const rules = await IgnoreRules.forProject(temp.project);
    for (const bad of ['', '/abs', './a', 'a/../b', 'a//b', 'a\\b']) {
      expect(() => rules.ignores(bad, false), bad).toThrow(/project-relative path/);
    }
  });
});
