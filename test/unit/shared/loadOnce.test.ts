import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../../src/shared/loadOnce';

describe('loadOnce', () => {
  it('loads on the first call and shares that load with every later caller', async () => {
    let loads = 0;
    const get = loadOnce(async () => ({ n: ++loads }));
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(loads).toBe(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let loads = 0;
    const get = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('disk full');
      return 'ready';
    });
    await expect(get()).rejects.toThrow('disk full');
    expect(await get()).toBe('ready');
    expect(await get()).toBe('ready');
    expect(loads).toBe(2);
  });
});

describe('loadOnce, when the load throws before it returns a promise', () => {
  it('rejects (never throws at the caller) and tries again next time', async () => {
    let calls = 0;
    const get = loadOnce<string>(() => {
      calls += 1;
      if (calls === 1) throw new Error('unsupported');
      return Promise.resolve('ok');
    });
    const first = get();
    await expect(first).rejects.toThrow('unsupported');
    expect(await get()).toBe('ok');
  });
});
