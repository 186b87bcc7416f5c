// What the sandbox hides, found from the protected-path rules on a real tree.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSandbox } from '../../../src/main/core/sandbox/plan';
import { treatmentOf } from '../../../src/main/core/sandbox/protectedEntries';

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
