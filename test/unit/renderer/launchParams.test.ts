import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionToOpen } from '../../../src/renderer/src/lib/launchParams';

const ID = '0123456789abcdef0123456789abcdef';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sessionToOpen', () => {
  it('returns the session id carried in the query', () => {
    expect(sessionToOpen(`?session=${ID}`)).toBe(ID);
    expect(sessionToOpen(`?other=1&session=${ID}`)).toBe(ID);
  });

  it('returns null when the query names no session', () => {
    expect(sessionToOpen('')).toBeNull();
    expect(sessionToOpen('?other=1')).toBeNull();
    expect(sessionToOpen('?session=')).toBeNull();
  });

  it.each([
    ['too short', ID.slice(1)],
    ['too long', `${ID}0`],
    ['upper case', ID.toUpperCase()],
    ['not hex', `${ID.slice(0, 31)}g`],
    ['a path', `../${ID}`],
    ['an encoded newline after the id', `${ID}%0A`],
  ])('refuses an id that is %s', (_what, id) => {
    expect(sessionToOpen(`?session=${id}`)).toBeNull();
  });

  it('takes the first session parameter when there are several', () => {
    expect(sessionToOpen(`?session=${ID}&session=${'f'.repeat(32)}`)).toBe(ID);
  });

  it("reads the window's own query when none is given", () => {
    vi.stubGlobal('window', { location: { search: `?session=${ID}` } });
    expect(sessionToOpen()).toBe(ID);
  });
});
