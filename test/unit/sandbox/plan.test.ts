// What the sandbox hides, found from the protected-path rules on a real tree.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSandbox } from '../../../src/main/core/sandbox/plan';
import { MAX_ENTRIES, ProtectedEntriesError, treatmentOf } from '../../../src/main/core/sandbox/protectedEntries';

let root: string;
let project: string;
let home: string;

async function put(rel: string, content = 'x'): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await fs.writeFile(path.join(root, rel), content);
}

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-plan-')));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  await fs.mkdir(project);
  await fs.mkdir(home);
});
afterEach(async () => fs.rm(root, { recursive: true, force: true }));

describe('which names the sandbox hides or keeps read-only', () => {
  it.each([
    ['.env', 'file', 'maskedFiles'],
    ['.env.production', 'file', 'maskedFiles'],
    ['server.key', 'file', 'maskedFiles'],
    ['CERT.PEM', 'file', 'maskedFiles'],
    ['id_ed25519.pub', 'file', 'maskedFiles'],
    ['.npmrc', 'file', 'maskedFiles'],
    ['.ssh', 'directory', 'maskedDirs'],
    ['.aws', 'directory', 'maskedDirs'],
    ['.gnupg', 'directory', 'maskedDirs'],
    ['certs.pem', 'directory', 'maskedDirs'],
    ['.git', 'directory', 'readOnly'],
    ['.git', 'file', 'readOnly'],
    ['README.md', 'file', null],
    ['.ssh', 'file', null],
    ['src', 'directory', null],
  ] as const)('%s (%s): %s', (name, kind, treatment) => {
    expect(treatmentOf(name, kind)).toBe(treatment);
  });
});

describe('planSandbox', () => {
  it('finds protected files and directories at every depth, .git read-only, and the secrets of the home', async () => {
    await put('project/.env');
    await put('project/src/config/.env.local');
    await put('project/deploy/keys/server.key');
    await put('project/tools/.ssh/id_rsa');
    await put('project/.git/config');
    await put('project/vendor/lib/.git');
    await put('project/src/main.ts');
    await put('home/.mino/config.json');
    await put('home/.ssh/id_rsa');
    await put('home/.netrc');
    await put('home/.pypirc');
    await put('home/notes.txt');
    await put('home/work/.env'); // Not the project: only the home's own entries are masked.

    const plan = await planSandbox(project, [home]);
    expect(plan.projectDir).toBe(project);
    expect(plan.maskedFiles.sort()).toEqual(
      [
        'project/.env',
        'project/src/config/.env.local',
        'project/deploy/keys/server.key',
        'home/.netrc',
        'home/.pypirc',
      ].map((rel) => path.join(root, rel)).sort(),
    );
    expect(plan.maskedDirs.sort()).toEqual(['project/tools/.ssh', 'home/.ssh', 'home/.mino'].map((rel) => path.join(root, rel)).sort());
    expect(plan.readOnly.sort()).toEqual(['project/.git', 'project/vendor/lib/.git'].map((rel) => path.join(root, rel)).sort());
  });

  it('masks the target of a link whose name is protected, and does not walk into linked folders', async () => {
    await put('elsewhere/real-secret.txt');
    await put('elsewhere/inner/.env');
    await fs.symlink(path.join(root, 'elsewhere/real-secret.txt'), path.join(project, '.env'));
    await fs.symlink(path.join(root, 'elsewhere'), path.join(project, 'linked'));
    const plan = await planSandbox(project, [home]);
    expect(plan.maskedFiles).toEqual([path.join(root, 'elsewhere/real-secret.txt')]);
  });

  it('counts a home given twice once, and a home that does not exist as nothing', async () => {
    await put('home/.npmrc');
    const plan = await planSandbox(project, [home, home, path.join(root, 'missing')]);
    expect(plan.maskedFiles).toEqual([path.join(home, '.npmrc')]);
  });
});

describe('a project with too many entries to search', () => {
  // The walk stops past the limit: a sandbox that could not look everywhere would hide too little.
  it('is refused past 300,000 entries by default', () => {
    expect(MAX_ENTRIES).toBe(300_000);
  });

  it('is searched up to the limit and refused one entry past it, with the reason its command fails with', async () => {
    // Five entries: a.txt, b.txt, src, src/c.ts, src/.env (the project folder itself is not one).
    await put('project/a.txt');
    await put('project/b.txt');
    await put('project/src/c.ts');
    await put('project/src/.env');
    expect((await planSandbox(project, [home], { maxProjectEntries: 5 })).maskedFiles).toEqual([path.join(project, 'src/.env')]);
    const refused = planSandbox(project, [home], { maxProjectEntries: 4 });
    await expect(refused).rejects.toBeInstanceOf(ProtectedEntriesError);
    await expect(refused).rejects.toThrow('the project has more than 4 files and folders, too many to find every protected file before the command starts');
  });

  it('does not count what is under a hidden or read-only folder, which is never walked', async () => {
    for (let i = 0; i < 10; i += 1) await put(`project/.git/objects/${i}`);
    await put('project/a.txt');
    // .git and a.txt: two entries, whatever .git holds.
    expect((await planSandbox(project, [home], { maxProjectEntries: 2 })).readOnly).toEqual([path.join(project, '.git')]);
  });
});
