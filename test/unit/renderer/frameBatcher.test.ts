import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFrameBatcher } from '../../../src/renderer/src/lib/frameBatcher';

// Node has no animation frames: these stand in for the window's, so a test
// decides when "the screen paints". Timers are faked by vitest.
let frames: Map<number, FrameRequestCallback>;
let nextFrame: number;

function paint(): void {
  const due = [...frames.values()];
  frames.clear();
  for (const callback of due) callback(performance.now());
}

beforeEach(() => {
  frames = new Map();
  nextFrame = 0;
  vi.useFakeTimers();
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    nextFrame += 1;
    frames.set(nextFrame, callback);
    return nextFrame;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => {
    frames.delete(id);
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('createFrameBatcher', () => {
  it('delivers nothing until the next animation frame, then everything pushed since, in order', () => {
    const delivered: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => delivered.push(items));
    batcher.push('a');
    batcher.push('b');
    batcher.push('c');
    expect(delivered).toEqual([]);
    paint();
    expect(delivered).toEqual([['a', 'b', 'c']]);
  });

  it('asks for one frame per batch, however many items are pushed', () => {
    const batcher = createFrameBatcher<number>(() => {});
    for (let i = 0; i < 100; i += 1) batcher.push(i);
    expect(frames.size).toBe(1);
  });

  it('delivers on the timer when no frame comes (a hidden window)', () => {
    const delivered: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => delivered.push(items));
    batcher.push('a');
    vi.advanceTimersByTime(249);
    expect(delivered).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(delivered).toEqual([['a']]);
    // The frame that never came is withdrawn, so it cannot deliver again.
    expect(frames.size).toBe(0);
  });

  it('withdraws the fallback timer once the frame has delivered', () => {
    const deliver = vi.fn();
    const batcher = createFrameBatcher<string>(deliver);
    batcher.push('a');
    paint();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(deliver).toHaveBeenCalledTimes(1);
  });

  it('starts a new batch after a delivery, keeping the order across batches', () => {
    const delivered: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => delivered.push(items));
    batcher.push(1);
    batcher.push(2);
    paint();
    batcher.push(3);
    vi.advanceTimersByTime(250);
    batcher.push(4);
    paint();
    expect(delivered).toEqual([[1, 2], [3], [4]]);
  });

  it('flush hands over what is pending at once and cancels the scheduled frame and timer', () => {
    const delivered: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => delivered.push(items));
    batcher.push('a');
    batcher.push('b');
    batcher.flush();
    expect(delivered).toEqual([['a', 'b']]);
    expect(frames.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('flush with nothing pending delivers nothing', () => {
    const deliver = vi.fn();
    createFrameBatcher<string>(deliver).flush();
    expect(deliver).not.toHaveBeenCalled();
  });

  it('discard drops what is pending, so neither the frame nor the timer delivers it', () => {
    const deliver = vi.fn();
    const batcher = createFrameBatcher<string>(deliver);
    batcher.push('stale');
    batcher.discard();
    paint();
    vi.advanceTimersByTime(1000);
    batcher.flush();
    expect(deliver).not.toHaveBeenCalled();
  });

  it('stays usable after discard', () => {
    const delivered: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => delivered.push(items));
    batcher.push('stale');
    batcher.discard();
    batcher.push('fresh');
    paint();
    expect(delivered).toEqual([['fresh']]);
  });

  it('schedules a new batch for items pushed while a batch is being delivered', () => {
    const delivered: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => {
      delivered.push(items);
      if (items.includes('first')) batcher.push('during');
    });
    batcher.push('first');
    paint();
    expect(delivered).toEqual([['first']]);
    paint();
    expect(delivered).toEqual([['first'], ['during']]);
  });
});
