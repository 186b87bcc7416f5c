import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileAtomically, replaceFileAtomically, TARGET_APPEARED } from '../../../src/main/core/fs/atomicWrite';
import type { ProjectPath } from '../../../src/main/core/tools/types';
import { leftoverTemporaryFiles, makeTempProject, SENTINEL, type TempProject } from './tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  expect(await leftoverTemporaryFiles(t)).toEqual([]);
  await t.cleanup();
});

const p = (s: string) => s as ProjectPath;

describe('atomic writes', () => {
  it('creates a file and leaves only that name behind', async () => {
    await fs.mkdir(t.file('src'));
    expect(await createFileAtomically(t.project, p('src/a.txt'), 'hello\n')).toEqual({ ok: true });
    expect(await fs.readdir(t.file('src'))).toEqual(['a.txt']);
    expect(await t.read('src/a.txt')).toBe('hello\n');
    expect((await fs.stat(t.file('src/a.txt'))).nlink).toBe(1);
  });

  it('refuses to publish a create over a name that exists, and removes its temporary file', async () => {
    await t.write('a.txt', 'already here\n');
    const result = await createFileAtomically(t.project, p('a.txt'), 'new\n');
    expect(result).toMatchObject({ ok: false, kind: TARGET_APPEARED });
    expect(await t.read('a.txt')).toBe('already here\n');
  });

  it('replaces a file with the given permission bits, whatever the umask', async () => {
    await t.write('a.txt', 'old\n');
    expect(await replaceFileAtomically(t.project, p('a.txt'), 'new\n', 0o604)).toEqual({ ok: true });
    expect(await t.read('a.txt')).toBe('new\n');
    expect((await fs.stat(t.file('a.txt'))).mode & 0o777).toBe(0o604);
  });

  it('removes its temporary file when publishing fails', async () => {
    // A non-empty directory cannot be renamed over: the rename fails after the temp file is written.
    await t.write('target/inside.txt', 'x');
    const result = await replaceFileAtomically(t.project, p('target'), 'new\n', 0o644);
    expect(result).toMatchObject({ ok: false, kind: 'failed' });
    if (!result.ok) expect(result.reason).toMatch(/could not write target .*the file was not changed/);
    expect(await fs.readdir(t.project)).toEqual(['target']);
  });

  it('refuses a parent directory that is a link, and creates nothing beyond it', async () => {
    await fs.symlink(t.outside, t.file('out'));
    const result = await createFileAtomically(t.project, p('out/new.txt'), 'x');
    expect(result).toMatchObject({ ok: false, kind: 'refused' });
    expect(await fs.readdir(t.outside)).toEqual(['secret.txt']);
    expect(await fs.readFile(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(`${SENTINEL}\n`);
  });
});
