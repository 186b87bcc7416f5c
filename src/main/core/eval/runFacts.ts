// What a saved run shows, read from what it saved and nothing else: the
// session log (the calls the model made, their results, what was asked), the
// ledger (each decision and what decided it), the requests the relay saved,
// and the run record. The project afterwards is read by the checks themselves.
import * as path from 'node:path';
import { readSessionFile } from '../sessions/load';
import { lineRefs } from '../sessions/logLines';
import { corruptLine, readLogRecords } from '../sessions/logRecords';
import type { SessionRecord } from '../sessions/records';
import { readLedger, type LedgerEntry } from '../rules/ledger';
import { readRelayedRequests, type RelayedRequest } from './relay';
import { readRunRecord, RUN_FILES, type RunRecord } from './runRecord';

/** One call the model made, and what became of it. */
export interface CallFact {
  callId: string;
  name: string;
  /** The arguments as the model sent them (text). */
  arguments: string;
  /** The path or command the call names, if any. */
  target?: string;
  /** The saved result's status and output; absent when none was saved. */
  status?: string;
  output?: string;
  /** A confirmation was shown to the approver before it ran. */
  asked: boolean;
}

export interface RunFacts {
  runDir: string;
  record: RunRecord;
  /** The project as it is now (the run's project folder). */
  projectDir: string;
  calls: CallFact[];
  /** Tool names the approver was asked about, in order. */
  asked: string[];
  ledger: LedgerEntry[];
  requests: RelayedRequest[];
  /** The text of the last answer the model gave; null when it gave none. */
  finalAnswer: string | null;
  /** What could not be read (a session log that was never written, say); the run fails on it. */
  problems: string[];
}

export async function readRunFacts(runDir: string): Promise<RunFacts> {
  const record = await readRunRecord(runDir);
  const homeDir = path.join(runDir, RUN_FILES.home);
  const facts: RunFacts = { runDir, record, projectDir: path.join(runDir, RUN_FILES.project), calls: [], asked: [], ledger: [], requests: [], finalAnswer: null, problems: [] };
  try {
    facts.requests = await readRelayedRequests(path.join(runDir, RUN_FILES.requests));
  } catch (error) {
    facts.problems.push(`The relay's record of requests cannot be read: ${(error as Error).message}`);
  }
  if (record.sessionId === undefined) return facts;
  try {
    const { file, content } = await readSessionFile(homeDir, record.sessionId);
    takeRecords(facts, readLogRecords(content, lineRefs(content), false, corruptLine(file)).records);
  } catch (error) {
    facts.problems.push(`The session log cannot be read: ${(error as Error).message}`);
  }
  if (record.projectDir !== undefined) {
    const ledger = await readLedger(homeDir, record.projectDir);
    facts.ledger = ledger.entries;
    facts.problems.push(...ledger.problems);
  }
  return facts;
}

function takeRecords(facts: RunFacts, records: readonly SessionRecord[]): void {
  const byId = new Map<string, CallFact>();
  for (const record of records) {
    if (record.type === 'response') {
      for (const item of record.output) {
        if (item.type === 'function_call') {
          const call: CallFact = { callId: item.call_id, name: item.name, arguments: item.arguments, asked: false, ...targetOf(item.arguments) };
          byId.set(call.callId, call);
          facts.calls.push(call);
        } else if (item.type === 'message' && item.role === 'assistant' && item.text.trim() !== '') facts.finalAnswer = item.text;
      }
    } else if (record.type === 'confirmation' && record.asked) {
      facts.asked.push(record.name);
      const call = byId.get(record.call_id);
      if (call) call.asked = true;
    } else if (record.type === 'tool_result') {
      const call = byId.get(record.call_id);
      if (call) Object.assign(call, { status: record.status, output: record.output });
    }
  }
}

/** The `path` (file tools) or `command` (bash) of a call's arguments. */
function targetOf(args: string): { target?: string } {
  try {
    const parsed = JSON.parse(args) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { path: file, command } = parsed as { path?: unknown; command?: unknown };
    if (typeof file === 'string') return { target: file };
    if (typeof command === 'string') return { target: command };
    return {};
  } catch {
    // ignore: arguments that are not JSON name no target (the call failed as invalid_arguments)
    return {};
  }
}
