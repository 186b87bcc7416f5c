// The lock file itself: who holds it, and taking it back from a holder that died.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockFileForWrite } from '../../../src/main/core/locks/fileLock';
import { currentHolder, processStartTime } from '../../../src/main/core/locks/holder';
import { tryLockFile } from '../../../src/main/core/locks/lockFile';
import { lockedWrite } from '../../../src/main/core/tools/writeStep';
import type { ProjectPath } from '../../../src/main/core/tools/types';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-lock-'));
  lock = path.join(dir, 'locks', 'x.lock');
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

/** The pid of a process that has ended and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

async function writeHolder(holder: object): Promise<void> {
  await fs.mkdir(path.dirname(lock), { recursive: true });
  await fs.writeFile(lock, JSON.stringify(holder));
}

describe('lock files', () => {
  it('refuses a second taker while the holder lives, naming it, and frees the name on release', () => {
    const first = tryLockFile(lock, 'CLI');
    expect(first.ok).toBe(true);
    const second = tryLockFile(lock, 'desktop window');
    expect(second).toMatchObject({ ok: false, holder: { pid: process.pid, owner: 'CLI' } });
    if (first.ok) first.release();
    const third = tryLockFile(lock, 'desktop window');
    expect(third.ok).toBe(true);
    if (third.ok) third.release();
  });

  it('takes over a lock whose holder died', async () => {
    await writeHolder({ pid: await deadPid(), startTime: null, owner: 'CLI', since: '' });
    const attempt = tryLockFile(lock, 'desktop window');
    expect(attempt.ok).toBe(true);
    expect(JSON.parse(await fs.readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid, owner: 'desktop window' });
    if (attempt.ok) attempt.release();
    await expect(fs.stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(process.platform !== 'linux')('takes over a lock whose process id now belongs to another process (start time differs)', async () => {
    const live = currentHolder('CLI');
    expect(live.startTime).toBe(processStartTime(process.pid));
    await writeHolder({ ...live, pid: process.ppid, startTime: '1' });
    expect(tryLockFile(lock, 'desktop window').ok).toBe(true);
  });

  it('takes over a damaged lock file, which no Mino process wrote whole', async () => {
    await writeHolder({ nonsense: true });
    expect(tryLockFile(lock, 'CLI').ok).toBe(true);
  });

  it('keeps the lock of a holder whose process lives, even when it is another process', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      await writeHolder({ pid: child.pid, startTime: processStartTime(child.pid!), owner: 'CLI', since: '' });
      expect(tryLockFile(lock, 'desktop window')).toMatchObject({ ok: false, holder: { pid: child.pid, owner: 'CLI' } });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('releases a file lock when the write step throws, so the next writer is not kept waiting', async () => {
    const project = path.join(dir, 'project');
    await fs.mkdir(project);
    await fs.writeFile(path.join(project, 'a.txt'), 'a');
    const ctx = { projectDir: project, homeDir: dir };
    const p = 'a.txt' as ProjectPath;
    await expect(
      lockedWrite(ctx, p, {
        recheck: () => null,
        after: { kind: 'file', content: 'b' },
        write: () => Promise.reject(new Error('disk on fire')),
      }),
    ).rejects.toThrow('disk on fire');
    expect(await fs.readdir(path.join(dir, '.mino', 'locks'))).toEqual([]);
    const next = await lockFileForWrite(dir, project, p);
    expect(next.ok).toBe(true);
    if (next.ok) next.release();
  });
});
