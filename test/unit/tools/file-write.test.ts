import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatConfirmationFields } from '../../../src/shared/transcriptText';
import { writeFileTool } from '../../../src/main/core/tools/writeFile';
import { leftoverTemporaryFiles, listTree, makeTempProject, outsideSentinel, runApproved, SENTINEL, type TempProject } from '../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  // Whatever happened in the test, no temporary file may remain anywhere.
  expect(await leftoverTemporaryFiles(t)).toEqual([]);
  expect(await outsideSentinel(t)).toBe(`${SENTINEL}\n`);
  expect(await fs.readdir(t.outside)).toEqual(['secret.txt']);
  await t.cleanup();
});

const write = (p: string, content: string, mode: string) => runApproved(writeFileTool, { path: p, content, mode }, t.ctx);

async function inspect(p: string, content: string, mode: string) {
  const validation = writeFileTool.validate({ path: p, content, mode });
  if (!validation.ok) throw new Error(validation.reason);
  const inspection = await writeFileTool.inspect(validation.args, t.ctx);
  if (!inspection.ok) throw new Error(inspection.result.output);
  return { args: validation.args, inspection };
}

describe('write_file: validation', () => {
  it('accepts only the modes "create" and "overwrite"', () => {
    for (const mode of ['append', 'upsert', '', undefined]) {
      const validation = writeFileTool.validate({ path: 'a.txt', content: 'x', mode });
      expect(validation.ok, String(mode)).toBe(false);
      if (!validation.ok) expect(validation.reason).toMatch(/mode must be "create" .* or "overwrite"/);
    }
  });

  it('refuses content with a NUL byte and paths outside the project', () => {
    expect(writeFileTool.validate({ path: 'a.txt', content: 'a\0b', mode: 'create' }).ok).toBe(false);
    expect(writeFileTool.validate({ path: '../a.txt', content: 'a', mode: 'create' }).ok).toBe(false);
    expect(writeFileTool.validate({ path: '/tmp/a.txt', content: 'a', mode: 'create' }).ok).toBe(false);
  });

  it('is pure: a call for a file that does not exist still validates (as on replay)', () => {
    expect(writeFileTool.validate({ path: 'gone/away.txt', content: 'a', mode: 'overwrite' })).toEqual({
      ok: true,
      args: { path: 'gone/away.txt', content: 'a', mode: 'overwrite' },
    });
  });
});

describe('write_file: create', () => {
  it('creates a new file after showing the book\'s fields, a preview and the warning', async () => {
    const content = '# Notes\n\nfirst\n';
    const run = await write('docs/../notes.md', content, 'create');
    expect(writeFileTool.kind).toBe('file_write');
    expect(formatConfirmationFields(run.confirmation!)).toEqual([
      'Path: "notes.md"',
      `Project directory: ${JSON.stringify(t.project)}`,
      'Action: "Create a new file"',
      'Resulting file: "15 bytes, 3 lines"',
    ]);
    expect(run.confirmation!.preview).toBe(content);
    // The whole content as added lines, for a view with line numbers (the preview is capped, this is not).
    expect(run.confirmation!.diff).toContain('@@ -0,0 +1,3 @@\n+# Notes\n+\n+first\n');
    expect(run.confirmation!.warning).toBe('Writes with your account permissions; approval applies only to this change to the current file.');
    expect(run.result).toEqual({ status: 'completed', output: 'Created notes.md (15 bytes, 3 lines).' });
    expect(await t.read('notes.md')).toBe(content);
  });

  it('gives a new file the usual permissions (the umask decides)', async () => {
    await write('new.txt', 'x', 'create');
    const umask = process.umask();
    expect((await fs.stat(t.file('new.txt'))).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('refuses an existing target at inspection, without asking, and leaves it alone', async () => {
    await t.write('notes.md', 'mine\n');
    const run = await write('notes.md', 'theirs\n', 'create');
    expect(run.step).toBe('inspect');
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toMatch(/already exists.*"overwrite"/);
    expect(await t.read('notes.md')).toBe('mine\n');
  });

  it('treats a dangling symbolic link as an existing target', async () => {
    await fs.symlink(path.join(t.outside, 'planted.txt'), t.file('planted.txt'));
    const run = await write('planted.txt', 'x', 'create');
    expect(run.result.status).toBe('invalid_arguments');
  });

  it('refuses a target whose parent directory is missing, and says so', async () => {
    const run = await write('src/new/a.txt', 'x', 'create');
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toMatch(/The directory src does not exist/);
    expect(await listTree(t.project)).toEqual([]);
  });

  it('refuses to write through a linked directory, outside or inside the project', async () => {
    await fs.symlink(t.outside, t.file('out'));
    await fs.mkdir(t.file('src'));
    await fs.symlink('src', t.file('alias'));
    for (const p of ['out/new.txt', 'alias/new.txt']) {
      const run = await write(p, 'x', 'create');
      expect(run.result.status, p).toBe('invalid_arguments');
      expect(run.result.output).toMatch(/symbolic link/);
    }
    expect(await fs.readdir(t.file('src'))).toEqual([]);
  });

  it('does not replace a file that appeared between inspection and execution', async () => {
    const { args, inspection } = await inspect('race.txt', 'approved\n', 'create');
    await t.write('race.txt', 'appeared meanwhile\n');
    const result = await writeFileTool.execute(args, inspection.state, t.ctx);
    expect(result).toEqual({ status: 'failed', output: 'File changed after approval; nothing was written.' });
    expect(await t.read('race.txt')).toBe('appeared meanwhile\n');
  });
});

describe('write_file: overwrite', () => {
  it('replaces an existing file, keeps its permissions, and shows its size and a diff', async () => {
    await t.write('run.sh', 'echo old\n');
    await fs.chmod(t.file('run.sh'), 0o750);
    const run = await write('run.sh', 'echo new\n', 'overwrite');
    expect(run.confirmation!.fields.find((f) => f.label === 'Action')?.value).toBe('Overwrite the existing file (9 bytes)');
    expect(run.confirmation!.diff).toMatch(/-echo old\n\+echo new/);
    expect(run.result).toEqual({ status: 'completed', output: 'Overwrote run.sh (9 bytes, 1 line).' });
    expect(await t.read('run.sh')).toBe('echo new\n');
    expect((await fs.stat(t.file('run.sh'))).mode & 0o777).toBe(0o750);
  });

  it('refuses a missing target and suggests create', async () => {
    const run = await write('none.txt', 'x', 'overwrite');
    expect(run.result.status).toBe('invalid_arguments');
    expect(run.result.output).toMatch(/does not exist.*"create"/);
    expect(await listTree(t.project)).toEqual([]);
  });

  it('refuses a symbolic link, a hard-linked file and a directory as targets', async () => {
    await fs.symlink(path.join(t.outside, 'secret.txt'), t.file('link.txt'));
    await fs.link(path.join(t.outside, 'secret.txt'), t.file('hard.txt'));
    await fs.mkdir(t.file('dir'));
    for (const p of ['link.txt', 'hard.txt', 'dir']) {
      const run = await write(p, 'overwritten', 'overwrite');
      expect(run.result.status, p).toBe('invalid_arguments');
    }
  });

  it('writes nothing when the file changed between inspection and execution', async () => {
    await t.write('notes.md', 'seen\n');
    const { args, inspection } = await inspect('notes.md', 'approved\n', 'overwrite');
    await t.write('notes.md', 'changed by someone else\n');
    const result = await writeFileTool.execute(args, inspection.state, t.ctx);
    expect(result).toEqual({ status: 'failed', output: 'File changed after approval; nothing was written.' });
    expect(await t.read('notes.md')).toBe('changed by someone else\n');
  });

  it('writes nothing when the file was deleted between inspection and execution', async () => {
    await t.write('notes.md', 'seen\n');
    const { args, inspection } = await inspect('notes.md', 'approved\n', 'overwrite');
    await fs.rm(t.file('notes.md'));
    const result = await writeFileTool.execute(args, inspection.state, t.ctx);
    expect(result.status).toBe('failed');
    expect(await listTree(t.project)).toEqual([]);
  });

  it('writes nothing when the file was replaced by a link to the same content outside', async () => {
    await t.write('notes.md', `${SENTINEL}\n`);
    const { args, inspection } = await inspect('notes.md', 'approved\n', 'overwrite');
    await fs.rm(t.file('notes.md'));
    await fs.symlink(path.join(t.outside, 'secret.txt'), t.file('notes.md'));
    const result = await writeFileTool.execute(args, inspection.state, t.ctx);
    expect(result).toEqual({ status: 'failed', output: 'File changed after approval; nothing was written.' });
  });

  it('caps the content preview at 20 lines and states the bytes not shown', async () => {
    const content = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const { inspection } = await inspect('long.txt', content, 'create');
    if (!inspection.ok) throw new Error('inspection failed');
    const preview = inspection.confirmation.preview!.split('\n');
    expect(preview.slice(0, 20)).toEqual(content.split('\n').slice(0, 20));
    expect(preview[20]).toBe('... 80 more bytes not shown (231 bytes, 30 lines in total)');
  });
});

describe('write_file: denial', () => {
  it('has the book\'s denial message', () => {
    expect(writeFileTool.denialMessage).toBe(
      'The user did not approve this change; the file was not modified. Do not retry without a new user request.',
    );
  });
});
