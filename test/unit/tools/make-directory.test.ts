import * as fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatConfirmationFields } from '../../../src/shared/transcriptText';
import { makeDirectoryTool } from '../../../src/main/core/tools/makeDirectory';
import { listTree, makeTempProject, outsideSentinel, runApproved, SENTINEL, type TempProject } from '../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  expect(await outsideSentinel(t)).toBe(`${SENTINEL}\n`);
  expect(await fs.readdir(t.outside)).toEqual(['secret.txt']);
  await t.cleanup();
});

const mkdir = (p: unknown) => runApproved(makeDirectoryTool, { path: p }, t.ctx);

describe('make_directory', () => {
  it('creates the directory and its missing parents, lists them in the confirmation and names them in the result', async () => {
    await fs.mkdir(t.file('src'));
    const run = await mkdir('src/utils/deep/./er');
    expect(run.confirmation).toMatchObject({ tool: 'make_directory', preview: 'src/utils\nsrc/utils/deep\nsrc/utils/deep/er' });
    expect(formatConfirmationFields(run.confirmation!)).toEqual([
      'Path: "src/utils/deep/er"',
      `Project directory: ${JSON.stringify(t.project)}`,
      'Action: "Create 3 directories"',
    ]);
    expect(run.result).toEqual({ status: 'completed', output: 'Created 3 directories: src/utils, src/utils/deep, src/utils/deep/er.' });
    expect(await listTree(t.project)).toEqual(['src', 'src/utils', 'src/utils/deep', 'src/utils/deep/er']);
    expect((await fs.lstat(t.file('src/utils/deep/er'))).isDirectory()).toBe(true);
  });

  it('returns invalid_arguments when the directory already exists, and changes nothing', async () => {
    await fs.mkdir(t.file('docs'));
    expect(await mkdir('docs')).toMatchObject({
      step: 'inspect',
      result: { status: 'invalid_arguments', output: 'docs already exists as a directory; nothing needs creating. Use it as it is.' },
    });
  });

  it('returns invalid_arguments when a part of the path is a file', async () => {
    await t.write('notes.md', 'x');
    expect(await mkdir('notes.md/sub')).toMatchObject({
      step: 'inspect',
      result: { status: 'invalid_arguments', output: 'notes.md is a file, not a directory, so notes.md/sub cannot be created; choose another path.' },
    });
    expect(await mkdir('notes.md')).toMatchObject({ result: { status: 'invalid_arguments' } });
    expect(await listTree(t.project)).toEqual(['notes.md']);
  });

  it('refuses a symbolic link in any part, even one pointing inside the project, and creates nothing through it', async () => {
    await fs.symlink(t.outside, t.file('out'));
    await fs.mkdir(t.file('real'));
    await fs.symlink(t.file('real'), t.file('inside-link'));
    expect(await mkdir('out/new')).toMatchObject({ result: { status: 'invalid_arguments', output: expect.stringMatching(/^out \(on the way to out\/new\) is a symbolic link/) } });
    expect(await mkdir('inside-link/new')).toMatchObject({ result: { status: 'invalid_arguments', output: expect.stringMatching(/is a symbolic link/) } });
    expect(await fs.readdir(t.file('real'))).toEqual([]);
  });

  it('refuses paths that leave the project or name it, before touching anything', async () => {
    expect(await mkdir('../escape')).toMatchObject({ step: 'validate', result: { status: 'invalid_arguments' } });
    expect(await mkdir('/tmp/abs')).toMatchObject({ step: 'validate' });
    expect(await mkdir('.')).toMatchObject({ step: 'validate' });
    expect(await mkdir(42)).toMatchObject({ step: 'validate' });
  });

  it('creates nothing if the path changed after approval', async () => {
    const validation = makeDirectoryTool.validate({ path: 'a/b' });
    if (!validation.ok) throw new Error(validation.reason);
    const inspection = await makeDirectoryTool.inspect(validation.args, t.ctx);
    if (!inspection.ok) throw new Error(inspection.result.output);
    await t.write('a', 'now a file');
    expect(await makeDirectoryTool.execute(validation.args, inspection.state, t.ctx)).toEqual({
      status: 'failed',
      output: 'The path changed after approval; nothing was created.',
    });
    expect(await t.read('a')).toBe('now a file');
  });

  it('validates without the filesystem, as on replay', () => {
    expect(makeDirectoryTool.validate({ path: 'gone/away' })).toEqual({ ok: true, args: { path: 'gone/away' } });
    expect(makeDirectoryTool.kind).toBe('file_write');
  });
});
