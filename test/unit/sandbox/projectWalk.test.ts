// The one walk of a project before a sandboxed command: what the sandbox's
// plan and the git guard each take from it, on a real tree.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkProject } from '../../../src/main/core/sandbox/projectWalk';
import { makeTempHome, type TempHome } from '../../support/tempHome';

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome({ prefix: 'project-walk' });
});
afterEach(async () => temp.cleanup());

const relative = (entries: readonly string[]) => entries.map((entry) => path.relative(temp.project, entry) || '.').sort();

describe('the walk before a sandboxed command', () => {
  it("gives the plan's hidden and read-only entries and the guard's repository entries in one pass", async () => {
    await temp.write('.env', 'TOKEN=x\n');
    await temp.write('.git/config', '[core]\n');
    await temp.write('src/server.key', 'key\n');
    await temp.write('sm/.git', 'gitdir: ../.git/modules/sm\n');
    await temp.write('tools/.ssh/id_rsa', 'key\n');
    for (const dir of ['bare/objects', 'bare/refs']) await fs.mkdir(temp.file(dir), { recursive: true });
    await temp.write('bare/HEAD', 'ref: refs/heads/main\n');
    const walk = await walkProject(temp.project);
    expect(walk.root).toBe(temp.project);
    expect(relative(walk.protectedEntries.maskedFiles)).toEqual(['.env', 'src/server.key']);
    expect(relative(walk.protectedEntries.maskedDirs)).toEqual(['tools/.ssh']);
    expect(relative(walk.protectedEntries.readOnly)).toEqual(['.git', 'sm/.git']);
    expect(walk.repositories.map((entry) => `${entry.kind} ${path.relative(temp.project, entry.path)} ${entry.type}`).sort()).toEqual([
      'bare bare directory',
      'dotgit .git directory',
      'dotgit sm/.git file',
    ]);
    expect(walk.repositories.find((entry) => entry.type === 'file')?.content).toBe('gitdir: ../.git/modules/sm\n');
  });

  it('stamps every folder it lists, parents first, before reading it; never a .git folder, never through a link', async () => {
    await temp.write('.git/objects/ab', 'x');
    await temp.write('a/b/code.txt', 'code\n');
    await fs.symlink(temp.file('a'), temp.file('link'));
    const before = Date.now();
    const walk = await walkProject(temp.project);
    expect([...walk.folders.keys()].map((dir) => path.relative(temp.project, dir) || '.')).toEqual(['.', 'a', 'a/b']);
    expect(walk.folders.get(temp.project)?.folders).toEqual([temp.file('a')]);
    const stat = await fs.lstat(temp.file('a/b'), { bigint: true });
    expect(walk.folders.get(temp.file('a/b'))).toMatchObject({ stamp: { id: `${stat.dev}:${stat.ino}`, ctimeNs: stat.ctimeNs, mtimeNs: stat.mtimeNs }, listed: true, folders: [] });
    expect(walk.startedAtNs).toBeGreaterThanOrEqual(BigInt(before) * 1_000_000n);
  });

  it('goes into the folders the sandbox hides, for the repositories there, without hiding what is inside them again', async () => {
    await temp.write('keys.pem/inner/.env', 'TOKEN=x\n');
    await temp.write('keys.pem/inner/.git/config', '[core]\n');
    const walk = await walkProject(temp.project);
    expect(relative(walk.protectedEntries.maskedDirs)).toEqual(['keys.pem']);
    expect(walk.protectedEntries.maskedFiles).toEqual([]);
    expect(walk.protectedEntries.readOnly).toEqual([]);
    expect(relative(walk.repositories.map((entry) => entry.path))).toEqual(['keys.pem/inner/.git']);
  });

  it('refuses a project folder that is not a folder', async () => {
    await temp.write('file.txt', 'x\n');
    await expect(walkProject(temp.file('file.txt'))).rejects.toThrow(/cannot be read \(it is not a folder\)/);
  });
});
