// The window's file list and @mention search, through a real MinoService on a
// real temp project: what is listed and marked, the caps, and that nothing
// the renderer sends can list a folder outside the project.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FILE_LIST_MAX_ENTRIES, FILE_SEARCH_MAX_DEPTH, searchProjectFiles } from '../../../src/main/core/projects/projectFiles';
import type { FileListing, FileSearch, ProjectFile } from '../../../src/shared/files';
import { changeRulesFile, withRule } from '../../../src/main/core/rules/rulesFile';
import { makeServiceHarness, type FakeClient, type ServiceHarness } from './harness';

let h: ServiceHarness;
afterEach(async () => h?.cleanup());

const FILES = {
  'README.md': '# demo\n',
  '.env': 'TOKEN=secret\n',
  'server.key': 'key\n',
  'src/main.ts': 'export {};\n',
  'src/util/strings.ts': 'export {};\n',
  '.git/config': '[core]\n',
  '.ssh/id_rsa': 'private\n',
  'node_modules/left-pad/index.js': 'module.exports = 1;\n',
};

async function withProject(files: Record<string, string> = FILES): Promise<FakeClient> {
  h = await makeServiceHarness(files);
  const client = h.connect('w');
  h.picker.willPick(h.project);
  await client.value('projects:pick');
  return client;
}

const byName = (listing: FileListing, name: string): ProjectFile | undefined => listing.entries.find((entry) => entry.name === name);

describe('files:list', () => {
  it('lists a folder directories first, marks protected entries, and leaves .git out', async () => {
    const client = await withProject();
    const root = await client.value<FileListing>('files:list', { path: '.' });
    expect(root.entries.map((entry) => entry.name)).toEqual(['.ssh', 'node_modules', 'src', '.env', 'README.md', 'server.key']);
    expect(byName(root, '.env')).toEqual({ path: '.env', name: '.env', kind: 'file', protectedBy: '.env', skippedInSearch: false });
    expect(byName(root, 'server.key')?.protectedBy).toBe('*.key');
    expect(byName(root, '.ssh')).toMatchObject({ kind: 'dir', protectedBy: '.ssh/' });
    expect(byName(root, 'node_modules')).toMatchObject({ kind: 'dir', protectedBy: null, skippedInSearch: true });
    expect(byName(root, 'README.md')?.protectedBy).toBeNull();
    expect(root.more).toBe(0);

    const src = await client.value<FileListing>('files:list', { path: 'src' });
    expect(src.entries.map((entry) => entry.path)).toEqual(['src/util', 'src/main.ts']);
  });

  it('refuses to list a protected folder, in any spelling', async () => {
    const client = await withProject();
    for (const dir of ['.git', '.GIT', '.ssh', 'src/../.git']) {
      const result = await client.call('files:list', { path: dir });
      expect(result, dir).toMatchObject({ ok: false, error: expect.stringMatching(/is protected/) });
    }
  });

  it('refuses a path that leaves the project: "..", an absolute path, a drive, a link to outside', async () => {
    const client = await withProject();
    const outside = path.join(h.root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'stolen.txt'), 'outside\n');
    await fs.symlink(outside, h.file('out'));
    await fs.symlink(path.join(outside, 'stolen.txt'), h.file('src/stolen.txt'));

    for (const escape of ['..', '../outside', 'src/../../outside', outside, '/etc', 'C:\\Windows', '\\\\server\\share']) {
      const result = await client.call('files:list', { path: escape });
      expect(result, escape).toMatchObject({ ok: false, error: expect.stringMatching(/^Mino cannot list that folder: .*(leaves the project|absolute|drive)/) });
    }
    for (const throughLink of ['out', 'out/']) {
      const result = await client.call('files:list', { path: throughLink });
      expect(result, throughLink).toMatchObject({ ok: false, error: expect.stringContaining('Mino cannot list out') });
      if (!result.ok) expect(result.error).not.toContain('stolen');
    }
    // The links themselves are listed as links, never followed.
    const root = await client.value<FileListing>('files:list', { path: '.' });
    expect(byName(root, 'out')?.kind).toBe('link');
    const src = await client.value<FileListing>('files:list', { path: 'src' });
    expect(byName(src, 'stolen.txt')?.kind).toBe('link');
  });

  it(`shows at most ${FILE_LIST_MAX_ENTRIES} entries of a folder and counts the rest`, async () => {
    const client = await withProject({});
    await fs.mkdir(h.file('many'));
    await Promise.all(Array.from({ length: FILE_LIST_MAX_ENTRIES + 7 }, (_, i) => fs.writeFile(h.file(`many/f${String(i).padStart(4, '0')}.txt`), '')));
    const listing = await client.value<FileListing>('files:list', { path: 'many' });
    expect(listing.entries).toHaveLength(FILE_LIST_MAX_ENTRIES);
    expect(listing.more).toBe(7);
  });

  it('answers only a window with a project open', async () => {
    h = await makeServiceHarness();
    const client = h.connect('no-project');
    expect(await client.call('files:list', { path: '.' })).toMatchObject({ ok: false, error: expect.stringContaining('Open a project first') });
    expect(await client.call('files:find', { query: 'a' })).toMatchObject({ ok: false, error: expect.stringContaining('Open a project first') });
  });
});

describe('files:find', () => {
  it('finds files by name and path, best first, without entering .git, protected, skipped or linked folders', async () => {
    const client = await withProject();
    const outside = path.join(h.root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'src-secret.ts'), '');
    await fs.symlink(outside, h.file('linked'));

    const sr = await client.value<FileSearch>('files:find', { query: 'sr' });
    expect(sr.matches.map((match) => match.path)).toEqual(['src', 'src/util', 'src/main.ts', 'src/util/strings.ts']);
    expect(sr.truncated).toBe(false);

    const strings = await client.value<FileSearch>('files:find', { query: 'STRINGS' });
    expect(strings.matches.map((match) => match.path)).toEqual(['src/util/strings.ts']);

    for (const inside of ['config', 'id_rsa', 'left-pad', 'src-secret']) {
      const found = await client.value<FileSearch>('files:find', { query: inside });
      expect(found.matches.map((match) => match.path), inside).toEqual([]);
    }
    // Protected files are found, marked, so the list can show them as such.
    const env = await client.value<FileSearch>('files:find', { query: '.env' });
    expect(env.matches).toEqual([{ path: '.env', name: '.env', kind: 'file', protectedBy: '.env', skippedInSearch: false }]);
  });

  it('returns at most the match limit, counts the rest, and says when a cap stopped the walk', async () => {
    h = await makeServiceHarness({});
    await Promise.all(Array.from({ length: 30 }, (_, i) => fs.writeFile(h.file(`note${i}.md`), '')));
    const capped = await searchProjectFiles(h.project, 'note', { limit: 10 });
    expect(capped.matches).toHaveLength(10);
    expect(capped.more).toBe(20);
    expect(capped.truncated).toBe(false);

    const visitedCap = await searchProjectFiles(h.project, 'note', { maxVisited: 12 });
    expect(visitedCap.matches).toHaveLength(12);
    expect(visitedCap.truncated).toBe(true);

    const deep = Array.from({ length: FILE_SEARCH_MAX_DEPTH + 1 }, (_, i) => `d${i}`).join('/');
    await fs.mkdir(h.file(deep), { recursive: true });
    await fs.writeFile(h.file(`${deep}/bottom.txt`), '');
    const tooDeep = await searchProjectFiles(h.project, 'bottom');
    expect(tooDeep.matches).toEqual([]);
    expect(tooDeep.truncated).toBe(true);
  });
});

describe('paths the person protected with a rule', () => {
  it('are marked in the list and the @mention search like built-in protected paths, and their folders are neither listed nor searched', async () => {
    const client = await withProject({ 'docs/secret.md': 'secret\n', 'docs/open.md': 'open\n', 'private/inner/notes.md': 'n\n' });
    await changeRulesFile(h.home, (file) => withRule(file, { project: h.project }, 'protect docs/secret.md', '2026-01-01T00:00:00.000Z'));
    await changeRulesFile(h.home, (file) => withRule(file, { global: true }, 'protect private', '2026-01-01T00:00:00.000Z'));

    const docs = await client.value<FileListing>('files:list', { path: 'docs' });
    expect(byName(docs, 'secret.md')?.protectedBy).toBe('your rule r1 "protect docs/secret.md"');
    expect(byName(docs, 'open.md')?.protectedBy).toBeNull();
    const root = await client.value<FileListing>('files:list', { path: '.' });
    expect(byName(root, 'private')?.protectedBy).toBe('your rule r2 "protect private"');
    expect(await client.call('files:list', { path: 'private/inner' })).toMatchObject({ ok: false, error: expect.stringContaining('is protected (your rule r2 "protect private")') });

    const found = await client.value<FileSearch>('files:find', { query: 'notes' });
    expect(found.matches).toEqual([]);
    const secret = await client.value<FileSearch>('files:find', { query: 'secret' });
    expect(secret.matches.map((file) => [file.path, file.protectedBy])).toEqual([['docs/secret.md', 'your rule r1 "protect docs/secret.md"']]);
  });
});
