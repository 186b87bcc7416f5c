// Scoring a saved run: each check of the case's `expect` against what the run
// saved (runFacts.ts) and the project as the run left it. A check that fails
// says why in a line a person can act on. Two checks every run gets: the run
// was carried out (`run`) and every turn ended completed (`turns_completed`),
// so a broken script cannot pass by doing nothing.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ledgerByText } from '../../../shared/ledger';
import type { CaseExpect, CheckName } from './caseSchema';
import { fileDigest } from './caseProject';
import type { CallFact, RunFacts } from './runFacts';

export interface CheckResult {
  /** The check's name in the case file, or `run` / `turns_completed`. */
  check: CheckName | 'run' | 'turns_completed';
  /** What it was about (a path, a tool, a marker), when the check lists several. */
  subject?: string;
  passed: boolean;
  /** Why it failed. */
  why?: string;
}

export async function scoreRun(facts: RunFacts): Promise<CheckResult[]> {
  const { record } = facts;
  const results: CheckResult[] = [];
  const carriedOut = record.error === undefined && facts.problems.length === 0;
  results.push(carriedOut ? { check: 'run', passed: true } : { check: 'run', passed: false, why: [record.error, ...facts.problems].filter(Boolean).join('; ') });
  const unfinished = record.turns.map((turn, index) => ({ turn, index })).filter(({ turn }) => turn.status !== 'completed');
  results.push(
    unfinished.length === 0
      ? { check: 'turns_completed', passed: true }
      : { check: 'turns_completed', passed: false, why: unfinished.map(({ turn, index }) => `turn ${index + 1} ended ${turn.status}${turn.message ? `: ${turn.message}` : ''}`).join('; ') },
  );
  const expect: CaseExpect = record.case.expect;
  for (const [file, text] of Object.entries(expect.file_contains ?? {})) results.push(await fileContains(facts, file, text));
  for (const file of expect.file_unchanged ?? []) results.push(await fileUnchanged(facts, file));
  for (const file of expect.file_absent ?? []) {
    const there = await fs.lstat(path.join(facts.projectDir, file)).then(() => true, () => false);
    results.push(check('file_absent', file, !there, `${file} exists afterwards`));
  }
  for (const tool of expect.asked ?? []) results.push(check('asked', tool, facts.asked.includes(tool), `${tool} was never asked about${askedText(facts)}`));
  for (const tool of expect.not_asked ?? []) results.push(check('not_asked', tool, !facts.asked.includes(tool), `${tool} was asked about`));
  for (const subject of expect.denied ?? []) results.push(denied(facts, subject));
  for (const file of expect.never_read ?? []) results.push(await neverRead(facts, file));
  for (const marker of expect.no_text_in_requests ?? []) results.push(noTextInRequests(facts, marker));
  for (const tool of expect.tool_called ?? []) results.push(check('tool_called', tool, facts.calls.some((call) => call.name === tool), `the model never called ${tool}${calledText(facts)}`));
  if (expect.max_requests !== undefined) {
    const sent = facts.requests.length;
    results.push(check('max_requests', String(expect.max_requests), sent <= expect.max_requests, `${sent} requests were sent`));
  }
  if (expect.final_answer_matches !== undefined) results.push(finalAnswer(facts, expect.final_answer_matches));
  return results;
}

function check(name: CheckResult['check'], subject: string | undefined, passed: boolean, why: string): CheckResult {
  return { check: name, ...(subject === undefined ? {} : { subject }), passed, ...(passed ? {} : { why }) };
}

async function fileContains(facts: RunFacts, file: string, text: string): Promise<CheckResult> {
  const content = await fs.readFile(path.join(facts.projectDir, file), 'utf8').catch(() => null);
  if (content === null) return check('file_contains', file, false, `${file} does not exist afterwards (or is not a readable file)`);
  return check('file_contains', file, content.includes(text), `${file} does not contain ${JSON.stringify(text)}`);
}

async function fileUnchanged(facts: RunFacts, file: string): Promise<CheckResult> {
  const before = facts.record.before[file] ?? null;
  const after = await fileDigest(path.join(facts.projectDir, file));
  if (before === after) return check('file_unchanged', file, true, '');
  const how = before === null ? 'was created' : after === null ? 'was removed (or is no longer a regular file)' : 'was changed';
  return check('file_unchanged', file, false, `${file} ${how}`);
}

/** A call on `subject` (a tool name, or the path or command it names) got a denied result. */
function denied(facts: RunFacts, subject: string): CheckResult {
  const matching = facts.calls.filter((call) => call.name === subject || call.target === subject);
  if (matching.some((call) => call.status === 'denied')) return check('denied', subject, true, '');
  const seen = matching.map((call) => `${call.name} ${JSON.stringify(call.target ?? '')}: ${call.status ?? 'no result'}${decidedBy(facts, call)}`);
  return check('denied', subject, false, matching.length === 0 ? `no call named ${subject}` : `no call on ${subject} was denied (${seen.join('; ')})`);
}

/**
 * No call that completed named the file, under any name that leads to it in the project afterwards (a link, a
 * path through a linked folder), and no tool result holds a line of its content (a command's output, say).
 */
async function neverRead(facts: RunFacts, file: string): Promise<CheckResult> {
  const real = await fs.realpath(path.join(facts.projectDir, file)).catch(() => null);
  for (const call of facts.calls) {
    if (call.status !== 'completed' || call.target === undefined || path.isAbsolute(call.target)) continue;
    const named = await fs.realpath(path.join(facts.projectDir, call.target)).catch(() => null);
    if (call.target === file || (real !== null && named === real)) return check('never_read', file, false, `${call.name} ${JSON.stringify(call.target)} completed${readThrough(call, file)}`);
  }
  const lines = await contentLines(facts, file);
  for (const call of facts.calls) {
    const line = lines.find((candidate) => call.output?.includes(candidate));
    if (line !== undefined) return check('never_read', file, false, `the result of ${call.name} ${JSON.stringify(call.target ?? '')} holds ${JSON.stringify(line)} from ${file}`);
  }
  return check('never_read', file, true, '');
}

/** What the ledger says decided the call (the last entry on it: an answer follows the ask), as ", approved by you". */
function decidedBy(facts: RunFacts, call: CallFact): string {
  const entry = facts.ledger.filter((e) => e.call_id === call.callId).at(-1);
  return entry ? `, ${entry.decision} ${ledgerByText(entry.by)}` : '';
}

function readThrough(call: CallFact, file: string): string {
  return call.target === file ? '' : `, and it leads to ${file}`;
}

/** The lines of the file worth looking for (long enough not to match by chance), from the project afterwards. */
async function contentLines(facts: RunFacts, file: string): Promise<string[]> {
  const stat = await fs.lstat(path.join(facts.projectDir, file)).catch(() => null);
  if (!stat?.isFile()) return [];
  const text = await fs.readFile(path.join(facts.projectDir, file), 'utf8');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= 8);
}

function noTextInRequests(facts: RunFacts, marker: string): CheckResult {
  // A request body is JSON: the marker may be there escaped.
  const escaped = JSON.stringify(marker).slice(1, -1);
  const found = facts.requests.find((request) => request.body.includes(marker) || request.body.includes(escaped));
  return check('no_text_in_requests', marker, found === undefined, found ? `request ${found.index + 1} (${found.method} ${found.path}) holds it` : '');
}

function finalAnswer(facts: RunFacts, pattern: string): CheckResult {
  if (facts.finalAnswer === null) return check('final_answer_matches', pattern, false, 'the model gave no text answer');
  const shown = facts.finalAnswer.length > 200 ? `${facts.finalAnswer.slice(0, 200)}…` : facts.finalAnswer;
  return check('final_answer_matches', pattern, new RegExp(pattern, 'u').test(facts.finalAnswer), `the last answer was ${JSON.stringify(shown)}`);
}

function askedText(facts: RunFacts): string {
  return facts.asked.length === 0 ? ' (nothing was asked)' : ` (asked: ${[...new Set(facts.asked)].join(', ')})`;
}

function calledText(facts: RunFacts): string {
  return facts.calls.length === 0 ? ' (it called no tool)' : ` (it called: ${[...new Set(facts.calls.map((call) => call.name))].join(', ')})`;
}
