import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDirTool } from '../../../src/main/core/tools/listDir';
import { readFileTool } from '../../../src/main/core/tools/readFile';
import { makeTempProject, runApproved, SENTINEL, type TempProject } from '../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  await t.cleanup();
});

const list = (p: string) => runApproved(listDirTool, { path: p }, t.ctx);

describe('list_dir', () => {
  it('lists the project root as ".", directories first, then by name, each marked with its kind', async () => {
    await t.write('b.txt', 'b');
    await t.write('A.md', 'a');
    await fs.mkdir(t.file('zeta'));
    await fs.mkdir(t.file('alpha'));
    await fs.symlink('b.txt', t.file('link-to-b'));
    execFileSync('mkfifo', [t.file('pipe')]);
    const run = await list('.');
    expect(listDirTool.kind).toBe('restricted_read');
    expect(run.result).toEqual({
      status: 'completed',
      output: ['dir   alpha', 'dir   zeta', 'file  A.md', 'file  b.txt', 'link  link-to-b', 'other pipe'].join('\n'),
    });
  });

  it('shows at most 200 entries, then how many were not shown', async () => {
    await Promise.all(Array.from({ length: 250 }, (_, i) => t.write(`f${String(i).padStart(3, '0')}.txt`, '')));
    const lines = (await list('.')).result.output.split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[199]).toBe('file  f199.txt');
    expect(lines[200]).toBe('... 50 more entries not shown (250 in total).');
  });

  it('lists a binary file like any file, while reading it returns only a short reason', async () => {
    await t.write('img/photo.jpg', Buffer.alloc(5000, 0xff));
    expect((await list('img')).result.output).toBe('file  photo.jpg');
    const read = await runApproved(readFileTool, { path: 'img/photo.jpg' }, t.ctx);
    expect(read.result).toEqual({ status: 'invalid_arguments', output: 'img/photo.jpg: binary file, 5 KiB; not shown.' });
  });

  it('quotes names with control characters so they cannot pose as extra entries', async () => {
    await t.write('evil\nfile  fake.txt', '');
    expect((await list('.')).result.output).toBe('file  "evil\\nfile  fake.txt"');
  });

  it('says when a directory is empty', async () => {
    await fs.mkdir(t.file('empty'));
    expect((await list('empty')).result).toEqual({ status: 'completed', output: 'empty is an empty directory.' });
  });

  it('refuses a symlinked directory, and a path through one, even inside the project', async () => {
    await fs.symlink(t.outside, t.file('out'));
    await fs.mkdir(t.file('src/sub'), { recursive: true });
    await fs.symlink('src', t.file('alias'));
    for (const [p, reason] of [
      ['out', /out is a symbolic link/],
      ['alias', /alias is a symbolic link/],
      ['alias/sub', /alias \(on the way to alias\/sub\) is a symbolic link/],
    ] as const) {
      const run = await list(p);
      expect(run.result.status, p).toBe('invalid_arguments');
      expect(run.result.output).toMatch(reason);
      expect(run.result.output).not.toContain('secret.txt');
    }
  });

  it('refuses a file and points to read_file', async () => {
    await t.write('a.txt', 'a');
    const run = await list('a.txt');
    expect(run.result).toMatchObject({ status: 'invalid_arguments' });
    expect(run.result.output).toMatch(/a\.txt is a file.*read_file/);
  });

  it('refuses paths outside the project in validation', async () => {
    for (const p of ['..', '../outside', t.outside]) {
      const run = await list(p);
      expect(run.step, p).toBe('validate');
      expect(run.result.output).not.toContain(SENTINEL);
    }
  });
});
