import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatConfirmationFields } from '../../../src/shared/transcriptText';
import { editFileTool } from '../../../src/main/core/tools/editFile';
import { leftoverTemporaryFiles, makeTempProject, outsideSentinel, runApproved, SENTINEL, type TempProject } from '../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  expect(await leftoverTemporaryFiles(t)).toEqual([]);
  expect(await outsideSentinel(t)).toBe(`${SENTINEL}\n`);
  await t.cleanup();
});

const GREET = 'package main\n\nconst greeting = "hi"\n';
const edit = (p: string, oldString: string, newString: string) =>
  runApproved(editFileTool, { path: p, old_string: oldString, new_string: newString }, t.ctx);

describe('edit_file', () => {
  it('shows the book\'s confirmation for the greet.go change and reports the book\'s result', async () => {
    await t.write('greet.go', GREET);
    const run = await edit('greet.go', '"hi"', '"hello"');
    expect(editFileTool.kind).toBe('file_write');
    expect(formatConfirmationFields(run.confirmation!)).toEqual([
      'Path: "greet.go"',
      `Project directory: ${JSON.stringify(t.project)}`,
      'Starting line: "3"',
      'Remove: "\\"hi\\""',
      'Insert: "\\"hello\\""',
      'Resulting file: "39 bytes, 3 lines"',
    ]);
    expect(run.confirmation!.warning).toBe('Writes with your account permissions; approval applies only to this change to the current file.');
    expect(run.confirmation!.diff).toContain('-const greeting = "hi"\n+const greeting = "hello"');
    expect(run.result).toEqual({ status: 'completed', output: 'Edited greet.go at line 3 (39 bytes, 3 lines).' });
    expect(await t.read('greet.go')).toBe('package main\n\nconst greeting = "hello"\n');
  });

  it('refuses an absent fragment at inspection and tells the model to copy the exact text', async () => {
    await t.write('greet.go', GREET);
    const run = await edit('greet.go', '"hey"', '"hello"');
    expect(run.step).toBe('inspect');
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toMatch(/not found in greet\.go\. Read the file with read_file and copy the exact text/);
    expect(await t.read('greet.go')).toBe(GREET);
  });

  it('refuses a fragment that occurs more than once, with the count', async () => {
    await t.write('a.txt', 'x = 1\ny = 1\n');
    const run = await edit('a.txt', ' = 1', ' = 2');
    expect(run.result).toEqual({
      status: 'invalid_arguments',
      output: 'old_string occurs 2 times in a.txt; include enough surrounding text to make it occur exactly once.',
    });
  });

  it('counts overlapping occurrences as ambiguous', async () => {
    await t.write('a.txt', 'aaa');
    expect((await edit('a.txt', 'aa', 'b')).result.output).toMatch(/occurs 2 times/);
  });

  it('refuses an empty old_string and an edit that changes nothing, in validation', () => {
    const empty = editFileTool.validate({ path: 'a.txt', old_string: '', new_string: 'x' });
    const same = editFileTool.validate({ path: 'a.txt', old_string: 'x', new_string: 'x' });
    expect(empty).toMatchObject({ ok: false, reason: expect.stringMatching(/old_string is empty/) });
    expect(same).toMatchObject({ ok: false, reason: expect.stringMatching(/the same/) });
  });

  it('refuses a missing file and suggests write_file create', async () => {
    const run = await edit('new.go', 'a', 'b');
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toMatch(/does not exist; use write_file with mode "create"/);
  });

  it('writes nothing when the file changed between inspection and execution', async () => {
    await t.write('greet.go', GREET);
    const validation = editFileTool.validate({ path: 'greet.go', old_string: '"hi"', new_string: '"hello"' });
    if (!validation.ok) throw new Error(validation.reason);
    const inspection = await editFileTool.inspect(validation.args, t.ctx);
    if (!inspection.ok) throw new Error(inspection.result.output);
    const changed = 'package main\n\nconst greeting = "hi" // keep\n';
    await t.write('greet.go', changed);
    const result = await editFileTool.execute(validation.args, inspection.state, t.ctx);
    expect(result).toEqual({ status: 'failed', output: 'File changed after approval; nothing was written.' });
    expect(await t.read('greet.go')).toBe(changed);
  });

  it('keeps the file\'s permissions', async () => {
    await t.write('tool.sh', '#!/bin/sh\necho hi\n');
    await fs.chmod(t.file('tool.sh'), 0o700);
    await edit('tool.sh', 'echo hi', 'echo hello');
    expect((await fs.stat(t.file('tool.sh'))).mode & 0o777).toBe(0o700);
  });

  it('can delete a fragment (an empty new_string)', async () => {
    await t.write('a.txt', 'keep\ndrop\nkeep too\n');
    const run = await edit('a.txt', 'drop\n', '');
    expect(run.confirmation!.fields.find((f) => f.label === 'Insert')?.value).toBe('');
    expect(run.result.output).toBe('Edited a.txt at line 2 (14 bytes, 2 lines).');
    expect(await t.read('a.txt')).toBe('keep\nkeep too\n');
  });

  it('caps the Remove and Insert fragments, with the bytes not shown and their totals', async () => {
    const big = 'x'.repeat(3000);
    await t.write('big.txt', `start\n${big}\nend\n`);
    const run = await edit('big.txt', big, 'y');
    const remove = run.confirmation!.fields.find((f) => f.label === 'Remove')!.value;
    expect(remove).toBe(`${'x'.repeat(2048)}\n... 952 more bytes not shown (3000 bytes, 1 line in total)`);
    expect(run.result.status).toBe('completed');
  });

  it('refuses to edit through a linked directory or a linked file', async () => {
    await fs.symlink(t.outside, t.file('out'));
    await fs.symlink(path.join(t.outside, 'secret.txt'), t.file('secret-link.txt'));
    for (const p of ['out/secret.txt', 'secret-link.txt']) {
      const run = await edit(p, 'SENTINEL', 'PWNED');
      expect(run.result.status, p).toBe('invalid_arguments');
      expect(run.result.output).toMatch(/symbolic link/);
      expect(run.result.output).not.toContain(SENTINEL);
    }
  });

  it('refuses a file that is not UTF-8 text, since it could not be shown', async () => {
    await t.write('latin1.txt', Buffer.from('caf\xe9\n', 'latin1'));
    const run = await edit('latin1.txt', 'caf', 'cof');
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toMatch(/not valid UTF-8/);
  });
});
