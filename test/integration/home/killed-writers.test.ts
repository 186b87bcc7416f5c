// What a Mino process killed mid-write leaves in ~/.mino, and when it goes:
// a lock file whose holder died and the temp file a lock is linked from go
// when the next session is started or resumed (its lock is taken); a kept
// file content's temp file goes when the undo history's size is next
// counted, and is never counted; a settings file's goes at the next session
// start. The kills are real SIGKILLs at the worst moment.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptBytes, pruneCheckpoints } from '../../../src/main/core/checkpoints/preImageStore';
import { tryLockFile } from '../../../src/main/core/locks/lockFile';
import { lockSession } from '../../../src/main/core/locks/sessionLock';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { tsxArgs } from '../../support/tsxChild';

const HOME_WRITER = path.resolve(__dirname, '../../support/homeWriter.ts');
const SESSION = '0123456789abcdef0123456789abcdef';
const OTHER_SESSION = 'fedcba9876543210fedcba9876543210';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome({ prefix: 'killed-writers', files: { 'a.txt': 'a\n' } });
});
afterEach(async () => t.cleanup());

const locks = () => path.join(t.home, '.mino', 'locks');
const list = async (dir: string) => (await fs.readdir(dir)).sort();

/** Runs homeWriter.ts `what` and waits for it to end; with `killWhenLocked`, kills it once it says it holds the lock. */
async function writer(what: string, killWhenLocked = false): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, tsxArgs(HOME_WRITER, what, t.home, t.project), { stdio: ['ignore', 'pipe', 'inherit'] });
  if (killWhenLocked) child.stdout.once('data', () => child.kill('SIGKILL'));
  return new Promise((resolve) => child.once('close', (_code, signal) => resolve(signal)));
}

describe('after a Mino process was killed', () => {
  it('the file lock it held is removed when the next session is locked, though that file lock is never taken again', async () => {
    expect(await writer('hold-file-lock', true)).toBe('SIGKILL');
    expect(await list(locks())).toEqual([expect.stringMatching(/^file-[0-9a-f]{40}\.lock$/)]);
    const session = lockSession(t.home, SESSION, 'CLI');
    try {
      expect(await list(locks())).toEqual([`session-${SESSION}.lock`]);
    } finally {
      session.release();
    }
  }, 30_000);

  it('the temp file of a lock it was taking is removed when the next session is locked', async () => {
    expect(await writer('lock-temp')).toBe('SIGKILL');
    expect(await list(locks())).toEqual([expect.stringMatching(/^\.file-[0-9a-f]{40}\.lock\..+\.tmp$/)]);
    lockSession(t.home, SESSION, 'CLI').release();
    expect(await list(locks())).toEqual([]);
  }, 30_000);

  it('what live processes hold or are writing is left alone; a temp file without its writer goes once it is an hour old', async () => {
    await fs.mkdir(locks(), { recursive: true });
    const live = tryLockFile(path.join(locks(), `file-${'1'.repeat(40)}.lock`), 'desktop window');
    expect(live.ok).toBe(true);
    const taking = `.file-${'2'.repeat(40)}.lock.${process.pid}-aaaaaaaaaaaa.tmp`;
    const youngUnnamed = `.file-${'3'.repeat(40)}.lock.bbbbbbbbbbbb.tmp`;
    const oldUnnamed = `.file-${'4'.repeat(40)}.lock.cccccccccccc.tmp`;
    for (const name of [taking, youngUnnamed, oldUnnamed]) await fs.writeFile(path.join(locks(), name), '');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await fs.utimes(path.join(locks(), oldUnnamed), twoHoursAgo, twoHoursAgo);

    lockSession(t.home, SESSION, 'CLI').release();
    expect(await list(locks())).toEqual([taking, youngUnnamed, `file-${'1'.repeat(40)}.lock`].sort());
    if (live.ok) live.release();
  });

  it('the temp file of a file content it was keeping for undo is neither counted against the cap nor kept', async () => {
    expect(await writer('checkpoint')).toBe('SIGKILL');
    const dir = path.join(t.home, '.mino', 'checkpoints', SESSION);
    const [leftover] = await list(dir);
    expect(leftover).toMatch(/^\.[0-9a-f]{64}\..+\.tmp$/);
    expect((await fs.stat(path.join(dir, leftover!))).size).toBe(100_000);
    const { mtimeMs } = await fs.stat(dir);

    // Under a cap smaller than the leftover, nothing is dropped: there is nothing of the undo history to drop.
    expect(await pruneCheckpoints(t.home, 50_000, OTHER_SESSION)).toEqual([]);
    expect(await list(dir)).toEqual([]);
    expect(await keptBytes(t.home)).toBe(0);
    // Removing it did not make the session look recently written (the cap drops the oldest first).
    expect(Math.abs((await fs.stat(dir)).mtimeMs - mtimeMs)).toBeLessThan(1);
  }, 30_000);

  it('the temp file of a settings file it was saving is removed when the next session starts', async () => {
    expect(await writer('config')).toBe('SIGKILL');
    const mino = path.join(t.home, '.mino');
    expect((await list(mino)).filter((name) => name.endsWith('.tmp'))).toEqual([expect.stringMatching(/^\.config\.json\..+\.tmp$/)]);
    const log = await SessionLog.create(t.home, t.project);
    await log.close();
    expect((await list(mino)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 30_000);
});
