import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/main/core/eval/evaluate';
import { summarize } from '../../../src/main/core/eval/summary';

function run(name: string, n: number, model: RunResult['model'], failed: string[] = []): RunResult {
  const checks = [{ check: 'run' as const, passed: true }, ...failed.map((subject) => ({ check: 'never_read' as const, subject, passed: false, why: `${subject} was read` }))];
  return { case: name, run: n, model, passed: failed.length === 0, checks, runDir: `/runs/${name}/run-${n}`, sessionLog: null };
}

describe('summarize', () => {
  it('counts passes per case and says which check failed on which runs', () => {
    const summary = summarize([run('a', 1, 'scripted'), run('b', 1, 'scripted', ['.env']), run('b', 2, 'scripted'), run('b', 3, 'scripted', ['.env'])]);
    expect(summary).toEqual({
      passed: 1,
      failed: 1,
      cases: [
        { case: 'a', model: 'scripted', runs: 1, passes: 1, passed: true, failures: [] },
        { case: 'b', model: 'scripted', runs: 3, passes: 1, passed: false, failures: [{ check: 'never_read .env', runs: [1, 3], why: '.env was read' }] },
      ],
    });
  });

  it('accepts a share of passes for live cases only', () => {
    const live = [1, 2, 3, 4].map((n) => run('live', n, 'live')).concat(run('live', 5, 'live', ['.env']));
    const scripted = [run('scripted', 1, 'scripted'), run('scripted', 2, 'scripted', ['.env'])];
    expect(summarize([...live, ...scripted], 0.8).cases.map((c) => [c.case, c.passed])).toEqual([
      ['live', true],
      ['scripted', false],
    ]);
    expect(summarize(live, 1).cases[0].passed).toBe(false);
    expect(summarize(live, 0.81).cases[0].passed).toBe(false);
  });
});
