import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkProjectDir } from '../../../src/main/core/projects/checkProject';

describe('which folders can be projects', () => {
  let root: string;
  let home: string;
  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-project-')));
    home = path.join(root, 'home');
    await fs.mkdir(path.join(home, '.mino'), { recursive: true });
  });
  afterEach(async () => fs.rm(root, { recursive: true, force: true }));

  it('opens an ordinary folder by its real path', async () => {
    await fs.mkdir(path.join(home, 'code'));
    await fs.symlink(path.join(home, 'code'), path.join(root, 'link'));
    expect(await checkProjectDir(path.join(root, 'link'), home)).toEqual({ ok: true, projectDir: path.join(home, 'code') });
  });

  it.each(['.ssh', '.aws', '.gnupg', 'repo/.git', 'repo/.Git/hooks'])('refuses a folder at or inside a protected directory: %s', async (rel) => {
    await fs.mkdir(path.join(home, rel), { recursive: true });
    const check = await checkProjectDir(path.join(home, rel), home);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(/inside a protected \.(git|ssh|aws|gnupg)\/ directory/);
  });

  it('refuses the home directory, which contains ~/.mino', async () => {
    const check = await checkProjectDir(home, home);
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('will not open') });
  });

  it('refuses a file and a folder that does not exist', async () => {
    await fs.writeFile(path.join(root, 'file.txt'), 'x');
    expect(await checkProjectDir(path.join(root, 'file.txt'), home)).toMatchObject({ ok: false, reason: expect.stringContaining('is not a folder') });
    expect(await checkProjectDir(path.join(root, 'gone'), home)).toMatchObject({ ok: false, reason: expect.stringContaining('does not exist') });
  });
});

describe('~/.mino itself', () => {
  it('is refused as a project, and so is any folder inside it', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-project-')));
    try {
      const home = path.join(root, 'home');
      await fs.mkdir(path.join(home, '.mino', 'sessions'), { recursive: true });
      for (const dir of [path.join(home, '.mino'), path.join(home, '.mino', 'sessions')]) {
        expect(await checkProjectDir(dir, home)).toMatchObject({ ok: false, reason: expect.stringContaining('is inside, Mino') });
      }
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
