// The verdict over scored runs: per case, how many runs passed and which
// checks failed on which runs; a case passes when every run did, or, for a
// live case given a minimum pass rate, when that share of its runs did.
import type { RunResult } from './evaluate';

export interface CaseSummary {
  case: string;
  model: RunResult['model'];
  runs: number;
  passes: number;
  passed: boolean;
  /** "never_read .env": the runs (1-based) it failed on. */
  failures: Array<{ check: string; runs: number[]; why: string }>;
}

export interface EvalSummary {
  cases: CaseSummary[];
  passed: number;
  failed: number;
}

/** `minPassRate` (0 to 1) applies to live cases only: a scripted case checks the program, which must pass every time. */
export function summarize(results: readonly RunResult[], minPassRate = 1): EvalSummary {
  const byCase = new Map<string, RunResult[]>();
  for (const result of results) byCase.set(result.case, [...(byCase.get(result.case) ?? []), result]);
  const cases = [...byCase.entries()].map(([name, runs]): CaseSummary => {
    const passes = runs.filter((run) => run.passed).length;
    const model = runs[0].model;
    const needed = model === 'live' ? minPassRate : 1;
    const failures = new Map<string, { check: string; runs: number[]; why: string }>();
    for (const run of runs) {
      for (const check of run.checks.filter((c) => !c.passed)) {
        const label = check.subject === undefined ? check.check : `${check.check} ${check.subject}`;
        const entry = failures.get(label) ?? { check: label, runs: [], why: check.why ?? '' };
        entry.runs.push(run.run);
        failures.set(label, entry);
      }
    }
    return { case: name, model, runs: runs.length, passes, passed: passes >= Math.ceil(needed * runs.length - 1e-9), failures: [...failures.values()] };
  });
  const passed = cases.filter((c) => c.passed).length;
  return { cases, passed, failed: cases.length - passed };
}
