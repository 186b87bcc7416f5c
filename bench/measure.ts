// What the benchmarks share: timing a step and comparing two of them fairly.
import { performance } from 'node:perf_hooks';

/** Milliseconds `fn` took. */
export async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[mid];
}

/**
 * The median times of `measured` and `bare`, run alternately (after `warmup`
 * runs of each) so drift in the machine's load affects both alike.
 */
export async function compareMedians(
  runs: number,
  warmup: number,
  measured: () => Promise<unknown>,
  bare: () => Promise<unknown>,
): Promise<{ measured: number; bare: number }> {
  for (let i = 0; i < warmup; i++) {
    await measured();
    await bare();
  }
  const measuredTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    measuredTimes.push(await time(measured));
    bareTimes.push(await time(bare));
  }
  return { measured: median(measuredTimes), bare: median(bareTimes) };
}
