import { describe, expect, it } from 'vitest';
import type { SessionId } from '../../../src/shared/domain';
import { SessionLock } from '../../../src/main/service/features/sessionLock';
import { sessionLabel } from '../../../src/main/service/features/sessionTitles';

const S = 'a'.repeat(32) as SessionId;

describe('the session lock', () => {
  it('runs opening work one at a time, and a failure does not block what comes next', async () => {
    const lock = new SessionLock();
    const order: string[] = [];
    let release!: () => void;
    const first = lock.exclusive(async () => {
      order.push('first starts');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first ends');
      throw new Error('first failed');
    });
    const second = lock.exclusive(async () => void order.push('second runs'));
    await Promise.resolve();
    expect(order).toEqual(['first starts']);
    release();
    await expect(first).rejects.toThrow('first failed');
    await second;
    expect(order).toEqual(['first starts', 'first ends', 'second runs']);
  });

  it('makes a reopening wait until the session has shut down', async () => {
    const lock = new SessionLock();
    let finish!: () => void;
    lock.closingUntil(S, new Promise<void>((resolve) => (finish = resolve)));
    let reopened = false;
    const waiting = lock.closed(S).then(() => (reopened = true));
    await Promise.resolve();
    expect(reopened).toBe(false);
    finish();
    await waiting;
    expect(reopened).toBe(true);
    await expect(lock.closed(S)).resolves.toBeUndefined();
  });
});

describe('window titles', () => {
  it('names a session by its first question, on one line and shortened', () => {
    expect(sessionLabel(null)).toBe('Untitled session');
    expect(sessionLabel('  fix\n the   build ')).toBe('fix the build');
    const long = sessionLabel('x'.repeat(100));
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
  });
});
