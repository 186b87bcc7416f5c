// The retry rules read no clock and no random source: the time and the
// jitter come from the caller, so each answer follows from its inputs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryAfterMs, retryCause, retryDelayMs } from '../../../src/main/core/model/retry';
import { ServiceStatusError } from '../../../src/main/core/model/serviceErrors';

const NOW = Date.parse('2026-03-01T12:00:00Z');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('retry rules', () => {
  it('counts a retry-after date from the time it is given, not from the clock', () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW + 3_600_000);
    expect(retryAfterMs({ 'retry-after': 'Sun, 01 Mar 2026 12:00:07 GMT' }, NOW)).toBe(7_000);
    expect(retryAfterMs({ 'retry-after': 'Sun, 01 Mar 2026 11:59:00 GMT' }, NOW)).toBe(0);
    const cause = retryCause(new ServiceStatusError(429, undefined, '', { 'retry-after': 'Sun, 01 Mar 2026 12:00:02 GMT' }), NOW);
    expect(cause).toEqual({ what: 'answered 429 (rate limited)', askedMs: 2_000 });
  });

  it('takes the backoff\'s jitter from the random source it is given', () => {
    const spy = vi.spyOn(Math, 'random');
    const cause = { what: 'answered 503 (unavailable)', askedMs: null };
    expect(retryDelayMs(cause, 1, () => 0)).toBe(500);
    expect(retryDelayMs(cause, 3, () => 1)).toBe(1_500);
    expect(spy).not.toHaveBeenCalled();
  });
});
