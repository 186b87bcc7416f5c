// What one file tool call may write: at most 256 KiB (UTF-8 bytes), for
// write_file's content and for the file an edit leaves. Larger is refused
// before anything is asked or written, with a way forward.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../../src/main/core/tools/editFile';
import { MAX_WRITE_BYTES, writeFileTool } from '../../../src/main/core/tools/writeFile';
import { makeTempProject, runApproved, type TempProject } from '../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(() => t.cleanup());

describe('write_file', () => {
  it('writes content of exactly 256 KiB', async () => {
    const run = await runApproved(writeFileTool, { path: 'full.txt', content: 'x'.repeat(MAX_WRITE_BYTES), mode: 'create' }, t.ctx);
    expect(run.result.status).toBe('completed');
    expect((await t.read('full.txt')).length).toBe(MAX_WRITE_BYTES);
  });

  it('refuses one byte more at inspection, before anything is asked, and says how to go on', async () => {
    const run = await runApproved(writeFileTool, { path: 'big.txt', content: 'x'.repeat(MAX_WRITE_BYTES + 1), mode: 'create' }, t.ctx);
    expect(run.step).toBe('inspect');
    expect(run.result).toEqual({
      status: 'invalid_arguments',
      output:
        'The content is 262,145 bytes; file tools write at most 256 KiB (262,144 bytes). Nothing was written. ' +
        'Split the content over several smaller files (modules, parts), or, for generated content, write a short bash command (a script) that produces it.',
    });
    await expect(t.read('big.txt')).rejects.toThrow(/ENOENT/);
  });

  it('counts UTF-8 bytes, not characters, and refuses an overwrite the same way', async () => {
    await t.write('old.txt', 'old\n');
    // 131,073 two-byte characters: under 256 Ki characters, over 256 KiB.
    const run = await runApproved(writeFileTool, { path: 'old.txt', content: 'é'.repeat(MAX_WRITE_BYTES / 2 + 1), mode: 'overwrite' }, t.ctx);
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toMatch(/^The content is 262,146 bytes/);
    expect(await t.read('old.txt')).toBe('old\n');
  });

  it('still validates such a call, so a session that saved one before the cap loads', () => {
    expect(writeFileTool.validate({ path: 'big.txt', content: 'x'.repeat(MAX_WRITE_BYTES * 2), mode: 'create' }).ok).toBe(true);
  });
});

describe('edit_file', () => {
  it('refuses an edit that would leave the file over 256 KiB, and changes nothing', async () => {
    await t.write('a.txt', 'start\nend\n');
    const run = await runApproved(editFileTool, { path: 'a.txt', old_string: 'start', new_string: 'y'.repeat(MAX_WRITE_BYTES) }, t.ctx);
    expect(run.step).toBe('inspect');
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toBe(
      'a.txt after this edit is 262,149 bytes; file tools write at most 256 KiB (262,144 bytes). Nothing was written. ' +
        'Insert less in one edit, or put the new part in a file of its own.',
    );
    expect(await t.read('a.txt')).toBe('start\nend\n');
  });

  it('makes an edit that leaves the file at exactly 256 KiB', async () => {
    await t.write('a.txt', 'start\nend\n');
    const run = await runApproved(editFileTool, { path: 'a.txt', old_string: 'start', new_string: 'y'.repeat(MAX_WRITE_BYTES - 5) }, t.ctx);
    expect(run.result.status).toBe('completed');
    expect(Buffer.byteLength(await t.read('a.txt'))).toBe(MAX_WRITE_BYTES);
  });
});
