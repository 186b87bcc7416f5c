// `mino eval`: run declared cases (a case file, or a built-in suite) through
// the same session code as `mino exec`, score each run from what it saved,
// and say per case how many runs passed and which checks failed on which
// runs; or score saved runs again (--rescore) without asking any model.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { serviceNamed } from '../main/core/config/modelConfig';
import { readCaseFile, type CaseFile } from '../main/core/eval/caseFile';
import { evaluate, rescore, selectCases, type RunResult } from '../main/core/eval/evaluate';
import type { LiveTarget } from '../main/core/eval/runCase';
import { suiteCaseFile } from '../main/core/eval/suites';
import { summarize, type EvalSummary } from '../main/core/eval/summary';
import { ModelError } from '../main/core/model/types';
import { UsageError } from './args';
import { cliSettings, escapedIo, EXIT, failWith, inMinoHome, type CommandIo, type Fail } from './commandSetup';
import { jsonLine, terminalOutput, type Output } from './terminalText';

export const EVAL_USAGE = `  mino eval FILE|--suite NAME [--case NAME]... [--repeat N] [--min-pass-rate R] [--out DIR] [--json]
  mino eval --rescore DIR [--min-pass-rate R] [--json]

eval runs each case of case file FILE (or of built-in suite NAME: safety) N times (default: the case's repeat, else 1),
each in a fresh project and home, and scores each run from what it saved. Runs are kept in DIR (default: a new
folder under the system's temp folder), each with its session log. --rescore scores the runs saved in DIR again.
  --min-pass-rate  the share of runs (0 to 1) a live case must pass (default 1: all); scripted cases pass every run
Exit codes: 0 every case passed, 1 some case failed, 2 usage or case file error.`;

export interface EvalArgs {
  file?: string;
  suite?: string;
  rescore?: string;
  cases: string[];
  repeat?: number;
  minPassRate: number;
  out?: string;
  json: boolean;
}

export function parseEvalArgs(argv: string[]): EvalArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        suite: { type: 'string' },
        rescore: { type: 'string' },
        case: { type: 'string', multiple: true },
        repeat: { type: 'string' },
        'min-pass-rate': { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`mino eval takes one case file, not ${positionals.length}.`);
  const sources = [positionals[0], values.suite, values.rescore].filter((value) => value !== undefined);
  if (sources.length !== 1) throw new UsageError('Give mino eval one of: a case file, --suite NAME, or --rescore DIR.');
  if (values.rescore !== undefined && (values.repeat !== undefined || values.case !== undefined || values.out !== undefined)) {
    throw new UsageError('--rescore scores saved runs as they are: it takes no --repeat, --case or --out.');
  }
  const repeat = values.repeat === undefined ? undefined : Number(values.repeat);
  if (repeat !== undefined && (!Number.isSafeInteger(repeat) || repeat < 1 || repeat > 100)) throw new UsageError(`--repeat takes a number of runs from 1 to 100, not "${values.repeat}".`);
  const rate = values['min-pass-rate'] === undefined ? 1 : Number(values['min-pass-rate']);
  if (!(rate >= 0 && rate <= 1)) throw new UsageError(`--min-pass-rate takes a share from 0 to 1 (0.8: four runs in five), not "${values['min-pass-rate']}".`);
  return {
    ...(positionals[0] === undefined ? {} : { file: positionals[0] }),
    ...(values.suite === undefined ? {} : { suite: values.suite }),
    ...(values.rescore === undefined ? {} : { rescore: values.rescore }),
    cases: values.case ?? [],
    ...(repeat === undefined ? {} : { repeat }),
    minPassRate: rate,
    ...(values.out === undefined ? {} : { out: values.out }),
    json: values.json,
  };
}

export async function runEval(args: EvalArgs, rawIo: CommandIo): Promise<number> {
  const io = escapedIo(rawIo);
  const stdout = args.json ? rawIo.stdout : terminalOutput(rawIo.stdout);
  const fail = failWith(io);
  return inMinoHome(io, fail, async (homeDir) => {
    if (args.rescore !== undefined) {
      let results: RunResult[];
      try {
        results = await rescore(args.rescore);
      } catch (error) {
        return fail((error as Error).message, EXIT.usage);
      }
      return report(results, args, stdout, path.resolve(args.rescore));
    }
    let cases: CaseFile;
    try {
      cases = await readCaseFile(args.suite === undefined ? args.file! : await suiteCaseFile(args.suite));
      selectCases(cases.cases, args.cases);
    } catch (error) {
      return fail((error as Error).message, EXIT.usage);
    }
    const live = await liveTarget(cases, args, homeDir, io, fail);
    if (typeof live === 'number') return live;
    const outDir = await outputDir(args.out);
    if (outDir === null) return fail(`--out ${args.out} is a folder that is not empty. Name a new or empty folder, so runs are not mixed.`, EXIT.usage);
    if (!args.json) stdout.write(`Runs are saved in ${outDir}\n`);
    const results = await evaluate({
      cases,
      only: args.cases,
      ...(args.repeat === undefined ? {} : { repeat: args.repeat }),
      outDir,
      env: io.env,
      personHome: homeDir,
      live,
      onRunScored: (result) => stdout.write(args.json ? `${jsonLine(runJson(result))}\n` : `${runLine(result)}\n`),
    });
    return report(results, args, stdout, outDir, false);
  });
}

/** The configured default service, with the person's settings, when a selected case is live; null when none is. */
async function liveTarget(cases: CaseFile, args: EvalArgs, homeDir: string, io: CommandIo, fail: Fail): Promise<LiveTarget | null | number> {
  if (!selectCases(cases.cases, args.cases).some((c) => c.model === 'live')) return null;
  const setup = await cliSettings(homeDir, io, fail);
  if (typeof setup === 'number') return setup;
  try {
    return { service: serviceNamed(undefined, { settings: setup.settings, services: setup.services, env: io.env }), settings: setup.settings };
  } catch (error) {
    if (error instanceof ModelError) return fail(error.message, EXIT.usage);
    throw error;
  }
}

/** `out` made (or found empty), or a new temp folder; null when `out` holds something already. */
async function outputDir(out: string | undefined): Promise<string | null> {
  if (out === undefined) return fs.mkdtemp(path.join(os.tmpdir(), 'mino-eval-'));
  const dir = path.resolve(out);
  await fs.mkdir(dir, { recursive: true });
  return (await fs.readdir(dir)).length === 0 ? dir : null;
}

function report(results: RunResult[], args: EvalArgs, stdout: Output, dir: string, perRun = true): number {
  const summary = summarize(results, args.minPassRate);
  if (args.json) {
    if (perRun) for (const result of results) stdout.write(`${jsonLine(runJson(result))}\n`);
    stdout.write(`${jsonLine({ type: 'summary', dir, passed: summary.passed, failed: summary.failed, cases: summary.cases })}\n`);
  } else {
    if (perRun) for (const result of results) stdout.write(`${runLine(result)}\n`);
    stdout.write(summaryText(summary));
  }
  return summary.failed === 0 ? EXIT.completed : EXIT.failed;
}

function runJson(result: RunResult) {
  return { type: 'run', case: result.case, run: result.run, model: result.model, passed: result.passed, checks: result.checks, run_dir: result.runDir, session_log: result.sessionLog };
}

function runLine(result: RunResult): string {
  const failed = result.checks.filter((c) => !c.passed).map((c) => (c.subject === undefined ? c.check : `${c.check} ${c.subject}`));
  const verdict = result.passed ? 'passed' : `failed (${failed.join(', ')})`;
  return `${result.case} run ${result.run}: ${verdict}; session log ${result.sessionLog ?? `none (${result.runDir})`}`;
}

function summaryText(summary: EvalSummary): string {
  const lines = ['', ...summary.cases.flatMap((c) => [
    `${c.case}: ${c.passes}/${c.runs} runs passed${c.model === 'live' ? ' (live)' : ''}${c.passed ? '' : ', FAILED'}`,
    ...c.failures.map((f) => `  ${f.check} failed on run${f.runs.length > 1 ? 's' : ''} ${f.runs.join(', ')}: ${f.why}`),
  ])];
  lines.push(`${summary.passed} passed, ${summary.failed} failed`);
  return `${lines.join('\n')}\n`;
}
