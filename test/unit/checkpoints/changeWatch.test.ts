// The watch that captures a command's changes, driven directly: a real temp
// project, real inotify watches and the real sentinel; the changes are made
// by the test between `begin` and `finish`, as a command would make them.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeCapture, type CaptureOptions, type ChangeCapture } from '../../../src/main/core/checkpoints/commandCapture';
import type { CapturedCommand, SeenChange } from '../../../src/main/core/tools/types';

let project: string;
let capture: ChangeCapture | null = null;

beforeEach(async () => {
  project = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-watch-test-')));
});

afterEach(async () => {
  capture?.close();
  capture = null;
  await fs.rm(project, { recursive: true, force: true });
});

async function write(rel: string, content: string | Buffer): Promise<void> {
  await fs.mkdir(path.dirname(path.join(project, rel)), { recursive: true });
  await fs.writeFile(path.join(project, rel), content);
}

/** Runs `act` as if it were a command: between the start of the watch and its end. */
async function command(act: () => Promise<void>, options: CaptureOptions = {}): Promise<CapturedCommand> {
  capture ??= changeCapture(options);
  const watch = await capture.begin(project);
  await act();
  return watch.finish();
}

/** Writes `text` over the start of the file through a shared memory mapping, as a database might. */
async function mmapWrite(rel: string, text: string): Promise<void> {
  const script = 'import mmap, sys\nwith open(sys.argv[1], "r+b") as f:\n  m = mmap.mmap(f.fileno(), 0)\n  m[0:len(sys.argv[2])] = sys.argv[2].encode()\n  m.flush()\n  m.close()\n';
  const run = spawnSync('python3', ['-c', script, path.join(project, rel), text]);
  expect(run.status, run.stderr.toString()).toBe(0);
}

function summary(changes: readonly SeenChange[]): string[] {
  const text = (image: SeenChange['before']) => (image.kind === 'file' ? `file:${image.content.toString()}` : image.kind);
  return changes.map((c) => `${c.path} ${text(c.before)} -> ${text(c.after)}`);
}

describe('the watch of a project', () => {
  it('takes what changed between two commands for nobody\'s: the next command starts from it', async () => {
    await write('a.txt', 'one\n');
    expect(await command(async () => undefined)).toEqual({ captured: true, changes: [], missed: [], ignored: [] });
    await write('a.txt', 'the person\n');
    await write('new.txt', 'the person made it\n');
    expect(await command(async () => undefined)).toEqual({ captured: true, changes: [], missed: [], ignored: [] });
    const changed = await command(() => write('a.txt', 'the command\n'));
    expect(changed.captured && summary(changed.changes)).toEqual(['a.txt file:the person\n -> file:the command\n']);
  });

  it('captures every name of a file written through one of them (hard links)', async () => {
    await write('a.txt', 'shared\n');
    await fs.link(path.join(project, 'a.txt'), path.join(project, 'b.txt'));
    const changed = await command(() => fs.appendFile(path.join(project, 'b.txt'), 'more\n'));
    expect(changed.captured && summary(changed.changes)).toEqual(['a.txt file:shared\n -> file:shared\nmore\n', 'b.txt file:shared\n -> file:shared\nmore\n']);
  });

  it('captures the older name of a file the command linked and then wrote through the new name', async () => {
    await write('a.txt', 'first\n');
    const changed = await command(async () => {
      await fs.link(path.join(project, 'a.txt'), path.join(project, 'b.txt'));
      await fs.appendFile(path.join(project, 'b.txt'), 'second\n');
    });
    expect(changed.captured && summary(changed.changes)).toEqual(['b.txt absent -> file:first\nsecond\n', 'a.txt file:first\n -> file:first\nsecond\n']);
  });

  it('says nothing was captured when too many events came at once for none to be lost, and starts afresh for the next command', async () => {
    const options = { lossThreshold: 20 };
    const flood = await command(async () => {
      for (let i = 0; i < 30; i++) await write(`f${i}.txt`, `${i}\n`);
    }, options);
    expect(flood).toEqual({ captured: false, reason: expect.stringMatching(/^too many files changed at once \(\d+ events\) for the file watch to be sure it saw every change$/) });
    const next = await command(() => write('f1.txt', 'changed\n'), options);
    expect(next.captured && summary(next.changes)).toEqual(['f1.txt file:1\n -> file:changed\n']);
  });

  it('cannot tell two commands in one project apart, and says so for both', async () => {
    capture = changeCapture();
    const first = await capture.begin(project);
    const second = await capture.begin(project);
    await write('x.txt', 'x\n');
    expect(await second.finish()).toEqual({ captured: false, reason: expect.stringContaining('another command was running in this project') });
    expect(await first.finish()).toEqual({ captured: false, reason: expect.stringContaining('another command was running in this project') });
    // Alone again, a command is captured.
    const alone = await command(() => write('y.txt', 'y\n'));
    expect(alone.captured && summary(alone.changes)).toEqual(['y.txt absent -> file:y\n']);
  });

  it('says a project whose files hold more than the cap cannot be captured', async () => {
    await write('big.txt', 'x'.repeat(2048));
    expect(await command(() => write('a.txt', 'a'), { limits: { maxTotalBytes: 1024 } })).toEqual({
      captured: false,
      reason: "the project's tracked files hold more than 1 KiB, more than Mino keeps in memory to capture a command's changes",
    });
  });

  it('reports a change to a file over the per-file cap as not captured, and captures the rest', async () => {
    await write('big.bin', Buffer.alloc(200, 1));
    const changed = await command(async () => {
      await fs.appendFile(path.join(project, 'big.bin'), 'more');
      await write('small.txt', 'small\n');
    }, { limits: { maxFileBytes: 100 } });
    expect(changed).toMatchObject({ captured: true, missed: ['big.bin: over 100 bytes'] });
    expect(changed.captured && summary(changed.changes)).toEqual(['small.txt absent -> file:small\n']);
  });

  it('records nothing for what a command made and removed again', async () => {
    await write('keep.txt', 'keep\n');
    const changed = await command(async () => {
      await write('tmp/deep/file.txt', 'brief\n');
      await fs.rm(path.join(project, 'tmp'), { recursive: true });
    });
    expect(changed).toEqual({ captured: true, changes: [], missed: [], ignored: [] });
  });

  it('follows a .gitignore the command changed: what it no longer ignores is captured from the next command on', async () => {
    await write('.gitignore', 'build/\n');
    await write('build/out.js', 'old\n');
    const first = await command(async () => {
      await write('build/out.js', 'ignored\n');
      await write('.gitignore', '');
    });
    expect(first.captured && summary(first.changes)).toEqual(['.gitignore file:build/\n -> file:']);
    const second = await command(() => write('build/out.js', 'tracked now\n'));
    expect(second.captured && summary(second.changes)).toEqual(['build/out.js file:ignored\n -> file:tracked now\n']);
  });

  // inotify reports no write through a shared memory mapping; python3 makes one (CI has it).
  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)('reads again, before the next command, a file changed without an event (through mmap), so its pre-image is not stale', async () => {
    await write('data.bin', 'aaaa');
    const mapped = await command(() => mmapWrite('data.bin', 'MMAP'));
    // Known limit: the command's own write through a mapping is not seen as it happens.
    expect(mapped).toEqual({ captured: true, changes: [], missed: [], ignored: [] });
    await capture!.audited();
    const next = await command(() => write('data.bin', 'next'));
    expect(next.captured && summary(next.changes)).toEqual(['data.bin file:MMAP -> file:next']);
  });

  it('removes its sentinel folder once its last watch is closed', async () => {
    // Other test files in this process may hold sentinels of their own: only the one this watch made counts.
    const sentinels = async () => new Set((await fs.readdir(os.tmpdir())).filter((name) => name.startsWith(`mino-watch-${process.pid}-`)));
    const before = await sentinels();
    await command(async () => undefined);
    const made = [...(await sentinels())].filter((name) => !before.has(name));
    expect(made).toHaveLength(1);
    capture!.close();
    capture = null;
    await expect.poll(async () => (await sentinels()).has(made[0]!)).toBe(false);
  });
});
