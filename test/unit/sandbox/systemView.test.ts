// What of the system a bwrap sandbox shows: folders that exist, links as links.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_FOLDERS, systemView } from '../../../src/main/core/sandbox/systemView';

let root: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-system-')));
});
afterEach(async () => fs.rm(root, { recursive: true, force: true }));

describe('systemView', () => {
  it('binds the folders that exist, recreates those that are links, and leaves out the missing and a plain file', async () => {
    await fs.mkdir(path.join(root, 'usr/bin'), { recursive: true });
    await fs.symlink('usr/bin', path.join(root, 'bin'));
    await fs.writeFile(path.join(root, 'etc'), 'not a folder');
    const at = (name: string) => path.join(root, name);
    expect(await systemView([at('usr'), at('bin'), at('etc'), at('nix')], [])).toEqual([
      { kind: 'directory', path: at('usr') },
      { kind: 'link', path: at('bin'), target: 'usr/bin' },
    ]);
  });

  it('shows a link-only entry (NixOS /run/current-system) only when it is a link', async () => {
    await fs.mkdir(path.join(root, 'store/system'), { recursive: true });
    await fs.mkdir(path.join(root, 'run'));
    await fs.symlink(path.join(root, 'store/system'), path.join(root, 'run/current-system'));
    await fs.mkdir(path.join(root, 'run/other'));
    expect(await systemView([], [path.join(root, 'run/current-system'), path.join(root, 'run/other')])).toEqual([
      { kind: 'link', path: path.join(root, 'run/current-system'), target: path.join(root, 'store/system') },
    ]);
  });

  it('names neither /run, /var nor any home among the system folders', () => {
    for (const hidden of ['/run', '/var', '/var/run', '/home', '/root', '/mnt', '/media', '/srv', '/tmp']) expect(SYSTEM_FOLDERS).not.toContain(hidden);
  });

  it('finds /usr on this machine', async () => {
    expect(await systemView()).toContainEqual({ kind: 'directory', path: '/usr' });
  });
});
