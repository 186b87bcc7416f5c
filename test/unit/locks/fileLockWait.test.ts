// The documented wait: a writer that finds the file locked waits for the
// holder, then gives up (after 10 s by default) and writes nothing. The
// wait is given short here; what is waited on is the holder's release.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_LOCK_WAIT_MS, lockFileForWrite, type FileLockResult } from '../../../src/main/core/locks/fileLock';
import type { ProjectPath } from '../../../src/main/core/fs/projectPath';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { tsxArgs } from '../../support/tsxChild';

const HOME_WRITER = path.resolve(__dirname, '../../support/homeWriter.ts');
const p = 'a.txt' as ProjectPath;

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome({ prefix: 'lock-wait', files: { 'a.txt': 'a\n' } });
});
afterEach(async () => t.cleanup());

async function held(result: Promise<FileLockResult>): Promise<Extract<FileLockResult, { ok: true }>> {
  const lock = await result;
  if (!lock.ok) throw new Error(lock.reason);
  return lock;
}

/** A child process holding a.txt's write lock until it is killed. */
async function holderProcess(): Promise<ChildProcessByStdio<null, Readable, null>> {
  const child = spawn(process.execPath, tsxArgs(HOME_WRITER, 'hold-file-lock', t.home, t.project), { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before taking the lock`)));
  });
  return child;
}

describe('waiting for a file lock', () => {
  it('waits 10 s by default', () => {
    expect(FILE_LOCK_WAIT_MS).toBe(10_000);
  });

  it('in one process: the second writer waits for the first and gets the lock when it is released', async () => {
    const first = await held(lockFileForWrite(t.home, t.project, p));
    let settled = false;
    const second = lockFileForWrite(t.home, t.project, p, { waitMs: 60_000 }).finally(() => (settled = true));
    // Let the second writer run as far as it can: it must be queued behind the first, not done.
    for (let i = 0; i < 20; i += 1) await fs.readdir(t.project);
    expect(settled).toBe(false);
    first.release();
    (await held(second)).release();
  });

  it('in one process: gives up after the wait with the documented message, and writes nothing', async () => {
    const first = await held(lockFileForWrite(t.home, t.project, p));
    try {
      expect(await lockFileForWrite(t.home, t.project, p, { waitMs: 50 })).toEqual({
        ok: false,
        kind: 'failed',
        reason: 'a.txt is being written by another session of this window and stayed locked for 0.05 s; nothing was written. Try again.',
      });
    } finally {
      first.release();
    }
    // The one that gave up left the queue: the next writer is not kept waiting.
    (await held(lockFileForWrite(t.home, t.project, p, { waitMs: 50 }))).release();
  });

  it('from another process: gives up naming the holder; once the holder is killed, its lock is taken over at once', async () => {
    const holder = await holderProcess();
    try {
      expect(await lockFileForWrite(t.home, t.project, p, { waitMs: 200 })).toEqual({
        ok: false,
        kind: 'failed',
        reason: `a.txt is being written by another Mino process (Mino, process ${holder.pid}) and stayed locked for 0.2 s; nothing was written. Try again.`,
      });
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('close', resolve));
    }
    // Its lock file is still there, naming a holder that is gone: the next taker removes it and takes the lock.
    expect((await fs.readdir(path.join(t.home, '.mino', 'locks'))).filter((name) => name.endsWith('.lock'))).toHaveLength(1);
    const lock = await held(lockFileForWrite(t.home, t.project, p, { waitMs: 0 }));
    lock.release();
    expect(await fs.readdir(path.join(t.home, '.mino', 'locks'))).toEqual([]);
  }, 30_000);
});
