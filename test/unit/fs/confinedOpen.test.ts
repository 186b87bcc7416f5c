import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeReader, openConfinedFile, verifyOpened } from '../../../src/main/core/fs/confinedOpen';
import type { ProjectPath } from '../../../src/main/core/tools/types';
import { makeTempProject, type TempProject } from './tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  await t.cleanup();
});

const p = (s: string) => s as ProjectPath;

describe('verifyOpened (the check-to-open swap detection)', () => {
  it('refuses a descriptor whose inode is not the one that was checked', async () => {
    const checked = await t.write('a.txt', 'checked\n');
    const swappedIn = await t.write('b.txt', 'swapped in\n');
    const before = await fs.lstat(checked);
    const handle = await fs.open(swappedIn, 'r');
    try {
      const verified = verifyOpened(p('a.txt'), checked, handle.fd, before);
      expect(verified).toMatchObject({ ok: false, kind: 'failed' });
      if (!verified.ok) expect(verified.reason).toMatch(/replaced while it was being opened/);
    } finally {
      await handle.close();
    }
  });

  it.runIf(process.platform === 'linux')('refuses a file reached through a directory that became a link', async () => {
    // The checked location is project/docs/x; the kernel actually opened outside/x
    // because "docs" now leads there. Same inode, wrong place: /proc tells.
    const real = path.join(t.outside, 'secret.txt');
    await fs.symlink(t.outside, t.file('docs'));
    const viaLink = t.file('docs/secret.txt');
    const handle = await fs.open(viaLink, 'r');
    try {
      const verified = verifyOpened(p('docs/secret.txt'), viaLink, handle.fd, await fs.lstat(real));
      expect(verified).toMatchObject({ ok: false, kind: 'failed' });
      if (!verified.ok) expect(verified.reason).toMatch(/different route/);
    } finally {
      await handle.close();
    }
  });

  it('accepts the file that was checked, at the place it was checked', async () => {
    const file = await t.write('src/a.txt', 'ok\n');
    const handle = await fs.open(file, 'r');
    try {
      const verified = verifyOpened(p('src/a.txt'), file, handle.fd, await fs.lstat(file));
      expect(verified.ok).toBe(true);
    } finally {
      await handle.close();
    }
  });
});

describe('openConfinedFile', () => {
  it('opens a regular file and leaves the descriptor with the caller', async () => {
    await t.write('src/a.txt', 'ok\n');
    const opened = openConfinedFile(t.project, p('src/a.txt'));
    expect(opened.ok).toBe(true);
    if (opened.ok) {
      expect(opened.entry.absPath).toBe(t.file('src/a.txt'));
      closeReader(opened.entry.fd);
    }
  });

  it('names the first missing directory on the way', async () => {
    const opened = openConfinedFile(t.project, p('nope/deeper/a.txt'));
    expect(opened).toMatchObject({ ok: false, kind: 'refused', missingPath: 'nope' });
  });

  it('refuses a path whose directory part is a regular file', async () => {
    await t.write('a.txt', 'x');
    const opened = openConfinedFile(t.project, p('a.txt/b'));
    expect(opened).toMatchObject({ ok: false, kind: 'refused' });
    if (!opened.ok) expect(opened.reason).toMatch(/a\.txt is not a directory/);
  });
});
