// `mino eval` as a service any front end can drive (the CLI now, the
// desktop's Evaluate view later): run each case of a case file N times into
// an output folder, one folder per run, score each run from what it saved,
// and rescore a saved folder without running anything.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { TurnEventListener } from '../agent/events';
import type { CaseFile } from './caseFile';
import type { EvalCase } from './caseSchema';
import { readRunFacts } from './runFacts';
import { runCase, type LiveTarget } from './runCase';
import { RUN_FILES, runSessionLog } from './runRecord';
import { scoreRun, type CheckResult } from './scorer';

export interface RunResult {
  case: string;
  run: number;
  model: EvalCase['model'];
  passed: boolean;
  checks: CheckResult[];
  runDir: string;
  /** The session log the run wrote; null when the run never opened a session. */
  sessionLog: string | null;
}

export interface EvaluateOptions {
  cases: CaseFile;
  /** Only these cases (by name); all when empty. */
  only?: readonly string[];
  /** Runs per case; default: the case's own `repeat`, else 1. */
  repeat?: number;
  /** A new or empty folder: runs go to <outDir>/<case>/run-<n>. */
  outDir: string;
  env: NodeJS.ProcessEnv;
  personHome: string;
  live: LiveTarget | null;
  /** Told before each run starts and after it is scored. */
  onRunStart?: (evalCase: EvalCase, run: number) => void;
  onRunScored?: (result: RunResult) => void;
  onEvent?: TurnEventListener;
  /** Checked before each run: once aborted, no further run starts and evaluate() throws EvaluationStoppedError. */
  signal?: AbortSignal;
}

/** The evaluation was stopped between runs; the runs before are kept in the output folder. */
export class EvaluationStoppedError extends Error {
  override name = 'EvaluationStoppedError';
}

/** The cases `only` names, in file order; throws naming any name no case has. */
export function selectCases(cases: readonly EvalCase[], only: readonly string[] = []): EvalCase[] {
  const unknown = only.filter((name) => !cases.some((c) => c.name === name));
  if (unknown.length > 0) throw new Error(`No case is named ${unknown.map((name) => `"${name}"`).join(', ')}. The cases are: ${cases.map((c) => c.name).join(', ')}.`);
  return only.length === 0 ? [...cases] : cases.filter((c) => only.includes(c.name));
}

export async function evaluate(options: EvaluateOptions): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (const evalCase of selectCases(options.cases.cases, options.only)) {
    const runs = options.repeat ?? evalCase.repeat ?? 1;
    for (let run = 1; run <= runs; run++) {
      if (options.signal?.aborted) throw new EvaluationStoppedError(`The evaluation was stopped after ${results.length} ${results.length === 1 ? 'run' : 'runs'}; those are kept in ${options.outDir}.`);
      options.onRunStart?.(evalCase, run);
      const runDir = path.join(options.outDir, evalCase.name, `run-${run}`);
      await fs.mkdir(runDir, { recursive: true });
      await runCase({ evalCase, caseDir: options.cases.dir, run, runDir, env: options.env, personHome: options.personHome, live: options.live, ...(options.onEvent ? { onEvent: options.onEvent } : {}) });
      const result = await scoreRunDir(runDir);
      options.onRunScored?.(result);
      results.push(result);
    }
  }
  return results;
}

/** Scores one saved run from what it saved, and saves the score beside it (score.json). */
export async function scoreRunDir(runDir: string): Promise<RunResult> {
  const facts = await readRunFacts(runDir);
  const checks = await scoreRun(facts);
  const result: RunResult = {
    case: facts.record.case.name,
    run: facts.record.run,
    model: facts.record.model,
    passed: checks.every((c) => c.passed),
    checks,
    runDir,
    sessionLog: runSessionLog(runDir, facts.record),
  };
  await fs.writeFile(path.join(runDir, RUN_FILES.score), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/**
 * Scores again every run saved under `dir` (an output folder, a case's folder, or one run's), in case and run
 * order, without running anything or asking any model. Throws when `dir` holds no saved run.
 */
export async function rescore(dir: string): Promise<RunResult[]> {
  const runDirs = await savedRunDirs(path.resolve(dir));
  if (runDirs.length === 0) throw new Error(`${dir} holds no saved mino eval run (no ${RUN_FILES.record} in it or in its folders). Give the folder mino eval printed.`);
  const results: RunResult[] = [];
  for (const runDir of runDirs) results.push(await scoreRunDir(runDir));
  return results.sort((a, b) => a.case.localeCompare(b.case) || a.run - b.run);
}

/** Folders holding a run.json: `dir` itself, or its folders two levels down at most (<case>/run-<n>). */
async function savedRunDirs(dir: string, depth = 0): Promise<string[]> {
  if (await fs.stat(path.join(dir, RUN_FILES.record)).then((s) => s.isFile(), () => false)) return [dir];
  if (depth === 2) return [];
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) if (entry.isDirectory()) found.push(...(await savedRunDirs(path.join(dir, entry.name), depth + 1)));
  return found;
}
