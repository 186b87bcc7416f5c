import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../../src/main/core/tools/readFile';
import { makeTempProject, runApproved, SENTINEL, type TempProject } from '../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  await t.cleanup();
});

const read = (p: string) => runApproved(readFileTool, { path: p }, t.ctx);

async function expectRefused(p: string, reason: RegExp) {
  const run = await read(p);
  expect(run.result.status).toBe('invalid_arguments');
  expect(run.result.output).toMatch(reason);
  expect(run.result.output).not.toContain(SENTINEL);
}

describe('read_file', () => {
  it('returns the text of a file, without asking (a restricted read)', async () => {
    await t.write('greet.go', 'package main\n\nconst greeting = "hi"\n');
    const run = await read('greet.go');
    expect(readFileTool.kind).toBe('restricted_read');
    expect(run.result).toEqual({ status: 'completed', output: 'package main\n\nconst greeting = "hi"\n' });
    expect(run.confirmation?.fields).toEqual([
      { label: 'Path', value: 'greet.go' },
      { label: 'Project directory', value: t.project },
    ]);
  });

  it('normalizes the path before reading and reports it as the target', async () => {
    await t.write('src/b.txt', 'b\n');
    const validation = readFileTool.validate({ path: './src/x/../b.txt' });
    expect(validation).toEqual({ ok: true, args: { path: 'src/b.txt' } });
    if (validation.ok) expect(readFileTool.target(validation.args)).toEqual({ path: 'src/b.txt', pathIs: 'file' });
    expect((await read('./src/x/../b.txt')).result.output).toBe('b\n');
  });

  it('says plainly that an empty file is empty', async () => {
    await t.write('empty.txt', '');
    expect((await read('empty.txt')).result).toEqual({ status: 'completed', output: 'empty.txt is empty (0 bytes).' });
  });

  it('refuses absolute paths, escapes and the project directory in validation, before touching the disk', async () => {
    for (const p of [path.join(t.outside, 'secret.txt'), '../outside/secret.txt', 'a/../../outside/secret.txt', '.', '']) {
      const run = await read(p);
      expect(run.step, p).toBe('validate');
      expect(run.result.status).toBe('invalid_arguments');
    }
  });

  it('refuses unknown or missing arguments in validation', async () => {
    expect(readFileTool.validate({}).ok).toBe(false);
    expect(readFileTool.validate({ path: 'a', extra: 1 }).ok).toBe(false);
    expect(readFileTool.validate({ path: 3 }).ok).toBe(false);
  });

  it('refuses a symbolic link to a file outside the project', async () => {
    await fs.symlink(path.join(t.outside, 'secret.txt'), t.file('link.txt'));
    await expectRefused('link.txt', /symbolic link/);
  });

  it('refuses a symbolic link even when it points inside the project', async () => {
    await t.write('real.txt', 'real\n');
    await fs.symlink('real.txt', t.file('alias.txt'));
    await expectRefused('alias.txt', /symbolic link/);
  });

  it('refuses a path through a symlinked directory, outside or inside the project', async () => {
    await fs.symlink(t.outside, t.file('out'));
    await expectRefused('out/secret.txt', /out \(on the way to out\/secret\.txt\) is a symbolic link/);
    await t.write('src/a.txt', 'a\n');
    await fs.symlink('src', t.file('docs'));
    await expectRefused('docs/a.txt', /docs .* is a symbolic link/);
  });

  it('refuses a file with more than one hard link', async () => {
    await fs.link(path.join(t.outside, 'secret.txt'), t.file('hard.txt'));
    await expectRefused('hard.txt', /2 hard links/);
  });

  it('refuses a FIFO without blocking on it', async () => {
    execFileSync('mkfifo', [t.file('pipe')]);
    // No writer ever opens the pipe: a blocking open would hang this test.
    await expectRefused('pipe', /FIFO/);
  });

  it('refuses a socket', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(t.file('sock'), resolve));
    try {
      await expectRefused('sock', /socket/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.runIf(process.getuid?.() === 0)('refuses a device file', async () => {
    execFileSync('mknod', [t.file('null-device'), 'c', '1', '3']);
    await expectRefused('null-device', /character device/);
  });

  it('reads a file of exactly 64 KiB and refuses one byte more', async () => {
    await t.write('max.txt', 'a'.repeat(64 * 1024));
    expect((await read('max.txt')).result.output).toHaveLength(64 * 1024);
    await t.write('big.txt', 'a'.repeat(64 * 1024 + 1));
    await expectRefused('big.txt', /65 KiB; file tools handle files of at most 64 KiB/);
  });

  it('refuses text that is not UTF-8 (Latin-1 bytes)', async () => {
    await t.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
    await expectRefused('latin1.txt', /not valid UTF-8/);
  });

  it('refuses a file containing a NUL byte as binary, with its size, and returns none of its bytes', async () => {
    await t.write('data.bin', Buffer.concat([Buffer.from('MZ\0\0'), Buffer.alloc(3000, 0x41)]));
    const run = await read('data.bin');
    expect(run.result).toEqual({ status: 'invalid_arguments', output: 'data.bin: binary file, 3 KiB; not shown.' });
  });

  it('refuses a known binary format by its name, without reading it', async () => {
    await t.write('logo.png', 'not really a png but named like one');
    expect((await read('logo.png')).result).toEqual({ status: 'invalid_arguments', output: 'logo.png: binary file, 1 KiB; not shown.' });
  });

  it('refuses a directory and points to list_dir', async () => {
    await fs.mkdir(t.file('src'));
    await expectRefused('src', /src is a directory.*list_dir/);
  });

  it('refuses a missing file and points to list_dir', async () => {
    await expectRefused('missing.txt', /missing\.txt does not exist\. Use list_dir/);
    await expectRefused('nodir/missing.txt', /nodir does not exist/);
  });

  it('keeps a byte order mark, so an edit can round-trip the file', async () => {
    await t.write('bom.txt', '\uFEFFtext\n');
    expect((await read('bom.txt')).result.output).toBe('\uFEFFtext\n');
  });
});
