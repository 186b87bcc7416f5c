// What the sandbox hides, found from the protected-path rules on a real tree,
// and what it shows of the homes.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSandbox } from '../../../src/main/core/sandbox/plan';
import { MAX_ENTRIES, ProjectTooLargeError } from '../../../src/main/core/sandbox/projectWalk';
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
  it('finds protected files and directories at every depth of the project, and .git read-only; the home is not searched', async () => {
    await put('project/.env');
    await put('project/src/config/.env.local');
    await put('project/deploy/keys/server.key');
    await put('project/tools/.ssh/id_rsa');
    await put('project/.git/config');
    await put('project/vendor/lib/.git');
    await put('project/src/main.ts');
    // The home is shown empty but for the allowed folders, so its secrets need no mask.
    await put('home/.ssh/id_rsa');
    await put('home/.netrc');

    const plan = await planSandbox(project, [home]);
    expect(plan.projectDir).toBe(project);
    expect(plan.homes).toEqual([home]);
    expect(plan.maskedFiles.sort()).toEqual(['project/.env', 'project/src/config/.env.local', 'project/deploy/keys/server.key'].map((rel) => path.join(root, rel)).sort());
    expect(plan.maskedDirs).toEqual([path.join(project, 'tools/.ssh')]);
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

  it('shows the default folders that exist in each home, counting a home given twice once and one that does not exist as nothing', async () => {
    await put('home/.cargo/bin/cargo');
    await put('home/.rustup/settings.toml');
    await put('home/.cargo/credentials.toml');
    const plan = await planSandbox(project, [home, home, path.join(root, 'missing')]);
    expect(plan.homes).toEqual([home]);
    expect(plan.readable).toEqual([path.join(home, '.rustup'), path.join(home, '.cargo/bin')]);
  });

  it('shows only the folders the person listed when a list is given, and a listed link as a link to its real folder', async () => {
    await put('home/.cargo/bin/cargo');
    await put('tools/nvm/nvm.sh');
    await fs.symlink(path.join(root, 'tools/nvm'), path.join(home, '.nvm'));
    const plan = await planSandbox(project, [home], { readableHome: [path.join(home, '.nvm'), path.join(home, '.config/missing')] });
    expect(plan.readable).toEqual([path.join(root, 'tools/nvm')]);
    expect(plan.readableLinks).toEqual([{ path: path.join(home, '.nvm'), target: path.join(root, 'tools/nvm') }]);
  });

  it('refuses a project that holds a home, which would show that home whole', async () => {
    const inner = path.join(project, 'me');
    await fs.mkdir(inner);
    await expect(planSandbox(project, [inner])).rejects.toThrow(`the project ${project} holds the home folder ${inner}`);
    await expect(planSandbox(project, [project])).rejects.toThrow(/holds the home folder/);
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
    await expect(refused).rejects.toBeInstanceOf(ProjectTooLargeError);
    await expect(refused).rejects.toThrow(
      'the project has more than 4 files and folders, too many to look through for protected files and git repositories before the command starts',
    );
  });

  it('does not count what is in a .git folder, which is never walked', async () => {
    for (let i = 0; i < 10; i += 1) await put(`project/.git/objects/${i}`);
    await put('project/a.txt');
    // .git and a.txt: two entries, whatever .git holds.
    expect((await planSandbox(project, [home], { maxProjectEntries: 2 })).readOnly).toEqual([path.join(project, '.git')]);
  });
});
