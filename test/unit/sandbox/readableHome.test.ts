// Which folders of a home a sandboxed command may read, and why an entry of
// the person's list is left out: on a real temp home, links and all.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readableEntryProblem, resolveReadableHome } from '../../../src/main/core/sandbox/readableHome';
import { DEFAULT_SANDBOX_READABLE, sandboxReadablePaths } from '../../../src/shared/sandboxReadable';

let root: string;
let home: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-readable-')));
  home = path.join(root, 'home');
  await fs.mkdir(home);
});
afterEach(async () => fs.rm(root, { recursive: true, force: true }));

describe('an entry that is never shown, whoever listed it', () => {
  it.each([
    ['/', 'is the whole file system'],
    ['/home/ann', 'is your home folder itself'],
    ['/home/ann/', 'is your home folder itself'],
    ['/home', 'contains the home folder /home/ann'],
    ['/home/ann/.mino', "is Mino's own data folder (~/.mino)"],
    ['/home/ann/.mino/sessions', "is Mino's own data folder (~/.mino) or inside it"],
    ['/home/ann/.ssh', 'is covered by the protected rule .ssh/'],
    ['/home/ann/.aws/cli', 'is covered by the protected rule .aws/'],
    ['/home/ann/.gnupg', 'is covered by the protected rule .gnupg/'],
    ['/home/ann/code/app/.git', 'is covered by the protected rule .git/'],
    ['/home/ann/.npmrc', 'is covered by the protected rule .npmrc'],
    ['/home/ann/.netrc', 'is covered by the protected rule .netrc'],
    ['/home/ann/certs/server.pem', 'is covered by the protected rule *.pem'],
    ['relative/path', 'is not an absolute path'],
  ])('%s %s', (entry, reason) => {
    expect(readableEntryProblem(entry, ['/home/ann'])).toContain(reason);
  });

  it.each(['/home/ann/.cargo/bin', '/home/ann/.mino-tools', '/home/annex/.cargo', '/opt/toolchains'])('%s is fine', (entry) => {
    expect(readableEntryProblem(entry, ['/home/ann'])).toBeNull();
  });
});

describe('resolveReadableHome', () => {
  it('shows the defaults that exist in each home, parents first, and skips the rest saying they do not exist', async () => {
    const other = path.join(root, 'other');
    for (const dir of [`${home}/.rustup`, `${home}/.cargo/bin`, `${other}/go/pkg/mod`]) await fs.mkdir(dir, { recursive: true });
    const result = await resolveReadableHome(undefined, [home, other]);
    expect(result.readable).toEqual([`${home}/.rustup`, `${home}/.cargo/bin`, `${other}/go/pkg/mod`]);
    expect(result.skipped).toHaveLength(2 * DEFAULT_SANDBOX_READABLE.length - 3);
    expect(result.skipped.find((s) => s.entry === `${home}/.nvm`)?.reason).toMatch(/^cannot be shown \(ENOENT\): it does not exist/);
  });

  it('skips what the person listed but may not be shown, with the reason, and shows a folder outside the homes', async () => {
    const outside = path.join(root, 'toolchains');
    for (const dir of [`${home}/.ssh`, `${home}/.mino/sessions`, `${home}/.config/gh`, outside]) await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(`${home}/.npmrc`, '//registry/:_authToken=x\n');
    // A harmless name that leads into ~/.ssh is judged by where it leads.
    await fs.symlink(`${home}/.ssh`, `${home}/keys`);
    const listed = [`${home}/.ssh`, `${home}/.mino/sessions`, `${home}/.npmrc`, `${home}/keys`, home, root, `${home}/.config/gh`, outside];
    const result = await resolveReadableHome(listed, [home]);
    expect(result.readable).toEqual([`${home}/.config/gh`, outside].sort((a, b) => a.split('/').length - b.split('/').length));
    expect(Object.fromEntries(result.skipped.map((s) => [path.relative(root, s.entry) || '.', s.reason.split(',')[0]]))).toEqual({
      'home/.ssh': 'is covered by the protected rule .ssh/',
      'home/.mino/sessions': "is Mino's own data folder (~/.mino) or inside it",
      'home/.npmrc': 'is covered by the protected rule .npmrc',
      'home/keys': 'is covered by the protected rule .ssh/',
      home: 'is your home folder itself',
      '.': `contains the home folder ${home}`,
    });
  });

  it('keeps a listed link inside a home as a link to the folder it leads to', async () => {
    await fs.mkdir(path.join(root, 'opt/nvm'), { recursive: true });
    await fs.mkdir(path.join(home, '.local'), { recursive: true });
    await fs.symlink(path.join(root, 'opt/nvm'), `${home}/.nvm`);
    await fs.symlink(path.join(root, 'opt'), `${home}/.local/opt`);
    // ~/.nvm/versions is reached through the ~/.nvm link: no second link for it.
    await fs.mkdir(path.join(root, 'opt/nvm/versions'));
    const result = await resolveReadableHome([`${home}/.nvm`, `${home}/.local/opt/nvm`, `${home}/.nvm/versions`], [home]);
    expect(result.readable).toEqual([path.join(root, 'opt/nvm'), path.join(root, 'opt/nvm/versions')]);
    expect(result.links).toEqual([
      { path: `${home}/.nvm`, target: path.join(root, 'opt/nvm') },
      { path: `${home}/.local/opt/nvm`, target: path.join(root, 'opt/nvm') },
    ]);
  });
});

describe('sandboxReadablePaths', () => {
  it('resolves a ~/ entry in every home and an absolute one once, leaving out entries with a problem', () => {
    expect(sandboxReadablePaths(['~/.cargo/bin/', '/opt/tools', 'relative', '~/../x'], ['/home/ann', '/root'])).toEqual([
      '/home/ann/.cargo/bin',
      '/root/.cargo/bin',
      '/opt/tools',
    ]);
  });
});
