// Loading a saved session: parse every record, check each recorded tool start
// with the tools' pure validation (never inspection, never execution), and
// rebuild the model history so every call is paired with an output.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MiB, PrivateFileError, readPrivateFile } from '../config/readPrivateFile';
import type { HistoryItem } from '../model/types';
import { sessionFile } from './ids';
import { brokenTailReason, decodeLine, lineRefs, parseLine, type LineRef, type LogLine } from './logLines';
import type { SurvivorState } from '../../../shared/sessions';
import type { SessionRecord, TemporaryFileRecord } from './records';
import { SessionLoadError } from './sessionErrors';
import { NEVER_STARTED, toolOutputForModel, UNKNOWN_OUTCOME } from './toolOutput';
import { errorText, log } from '../log/log';

export { SessionLoadError } from './sessionErrors';
export { toolOutputForModel } from './toolOutput';

/** The tools' pure validate, by tool name. */
export type CallValidator = (name: string, args: string) => { ok: true } | { ok: false; reason: string };

export interface UnknownCall {
  call_id: string;
  name: string;
  arguments: string;
  /** Temporary files its tool start named (see records.ts): what a crash may have left behind. */
  temp_files?: TemporaryFileRecord[];
  /** Those of `temp_files` that were found and removed when the session was resumed or acknowledged. */
  removed_temp_files?: string[];
  /** bash: the mark its processes carry (records.ts), to find any that outlived a crash. */
  process_mark?: string;
  /** Whether processes carrying `process_mark` were found (and ended) when the session was resumed. */
  survivors?: { state: SurvivorState; ended: number };
}

export interface LoadedSession {
  id: string;
  projectDir: string;
  createdAt: string;
  updatedAt: string;
  /** Every good record, in order (from the last compaction's kept part on, when loaded `fromLastCompaction`). */
  records: SessionRecord[];
  /**
   * Model input since the last 'clear': after a compaction, its summary and
   * the items it kept, then everything after it; every call paired with an output.
   */
  history: HistoryItem[];
  /** Record positions of the person's messages and of summaries (where a compaction may cut). */
  positions: WeakMap<HistoryItem, number>;
  /** The last usage the service reported for this history, and how many of its items that covered. */
  lastUsage: { tokens: number; coveredItems: number } | null;
  /** Every function-call id in the log, also those before a compaction or a clear. */
  usedCallIds: Set<string>;
  /** Loaded `fromLastCompaction` and records before the kept part were not read: `records` is not the whole log. */
  skippedRecords: boolean;
  /** Started, no result saved, not yet acknowledged. Never run again. */
  unknownCalls: UnknownCall[];
  /** E.g. a truncated last line that was (or will be) set aside. */
  problems: Array<{ line: number; message: string }>;
  /** The title the person last gave the session (found in the whole log, skipped part too); null if never renamed. */
  title: string | null;
}

interface OpenCall extends UnknownCall {
  started: boolean;
  resolved: boolean;
  /** Position of the response record that asked for it. */
  origin: number;
}

export interface LoadOptions {
  /**
   * Read only the header and the records from the last compaction's kept part
   * on: the history before it is replaced by the summary, so it is neither
   * parsed nor rebuilt (its call ids are still collected). For resuming.
   */
  fromLastCompaction?: boolean;
}

const COMPACTION_PREFIX = Buffer.from('{"type":"compaction"', 'utf8');
const TITLE_PREFIX = Buffer.from('{"type":"title"', 'utf8');
const CALL_ID = /"call_id":"((?:[^"\\]|\\.)*)"/g;

/** The bytes of a session file as read once; loading parses them and opening for append checks against them. */
export interface SessionFileContent {
  file: string;
  content: Buffer;
}

/**
 * Larger than any session a person works through (a turn's outputs are capped), small enough that a
 * wrong file (a link to a device, a disk image) cannot exhaust the heap.
 */
export const MAX_SESSION_FILE_BYTES = 256 * MiB;

export async function readSessionFile(homeDir: string, id: string): Promise<SessionFileContent> {
  let file: string;
  try {
    file = sessionFile(homeDir, id);
  } catch (error) {
    throw new SessionLoadError((error as Error).message);
  }
  let content: Buffer | null;
  try {
    content = await readPrivateFile(file, MAX_SESSION_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof PrivateFileError)) throw error;
    throw new SessionLoadError(error.message, { cause: error });
  }
  if (content === null) throw new SessionLoadError(`There is no saved session ${id} (${file} does not exist).`);
  return { file, content };
}

export async function loadSession(homeDir: string, id: string, validate: CallValidator, options: LoadOptions = {}): Promise<LoadedSession> {
  return parseSession(id, await readSessionFile(homeDir, id), validate, options);
}

/** Loads a session from bytes already read (see readSessionFile). */
export async function parseSession(
  id: string,
  { file, content }: SessionFileContent,
  validate: CallValidator,
  options: LoadOptions = {},
): Promise<LoadedSession> {
  const corrupt = (line: number, why: string): SessionLoadError =>
    new SessionLoadError(
      `The session file ${file} is corrupt at line ${line}: ${why}. The session was not loaded, so nothing in it is lost; fix or remove that line, or start a new session.`,
      { line },
    );

  const refs = lineRefs(content);
  const totalLines = refs.length;
  const problems: LoadedSession['problems'] = [];
  const records: SessionRecord[] = [];
  const recordLines: number[] = [];
  const usedCallIds = new Set<string>();

  // With fromLastCompaction, the lines between the header and the kept part are skipped; only their call ids are read.
  let skipTo = 1;
  if (options.fromLastCompaction) {
    const keptFrom = lastCompactionKeptFrom(content, refs);
    if (keptFrom !== null && keptFrom > 1) {
      skipTo = keptFrom;
      const skipped = content.subarray(refs[1]!.start, refs[keptFrom]!.start).toString('utf8');
      for (const match of skipped.matchAll(CALL_ID)) usedCallIds.add(match[1]!.includes('\\') ? (JSON.parse(`"${match[1]}"`) as string) : match[1]!);
    }
  }

  const visit = (ref: LineRef, line: LogLine) => {
    const isLast = ref.number === totalLines;
    if (isLast && ref.number > 1) {
      const reason = brokenTailReason(line);
      if (reason !== undefined) {
        problems.push({ line: line.number, message: `Line ${line.number} was not loaded because ${reason}; every record before it was kept.` });
        return;
      }
    }
    const parsed = parseLine(line.text);
    if (!parsed.ok) throw corrupt(line.number, parsed.reason);
    records.push(parsed.record);
    recordLines.push(line.number);
  };
  refs.forEach((ref, index) => {
    if (index > 0 && index < skipTo) return;
    visit(ref, decodeLine(content, ref));
  });

  const header = records[0];
  if (!header || header.type !== 'session') throw corrupt(1, 'the first line is not the session header');
  if (header.id !== id) throw corrupt(1, `the header names session ${header.id}, not ${id}`);

  problems.push(...(await recentSetAsideProblems(file, totalLines, records.at(-1))));

  const history: HistoryItem[] = [];
  /** The record position each history item came from (an output made up on load: its call's response). */
  let origins: number[] = [];
  const positions = new WeakMap<HistoryItem, number>();
  let lastUsage: LoadedSession['lastUsage'] = null;
  const push = (item: HistoryItem, origin: number) => {
    history.push(item);
    origins.push(origin);
  };
  const calls = new Map<string, OpenCall>();
  const unknown: UnknownCall[] = [];
  const acknowledged = new Set<string>();
  let open: OpenCall[] = [];

  // Pairs every call of the previous response before anything that follows it.
  const closeOpenCalls = () => {
    for (const call of open) {
      if (call.resolved) continue;
      call.resolved = true;
      if (call.started) {
        push({ type: 'function_call_output', call_id: call.call_id, output: toolOutputForModel(UNKNOWN_OUTCOME) }, call.origin);
        unknown.push(unknownCall(call));
      } else {
        push({ type: 'function_call_output', call_id: call.call_id, output: toolOutputForModel(NEVER_STARTED) }, call.origin);
      }
    }
    open = [];
  };

  const pendingCall = (callId: string, line: number, what: string): OpenCall => {
    const call = calls.get(callId);
    if (!call) throw corrupt(line, `${what} for call ${callId}, which no saved response asked for`);
    if (call.resolved || !open.includes(call)) throw corrupt(line, `${what} for call ${callId}, which already has a result`);
    return call;
  };

  records.forEach((record, index) => {
    const line = recordLines[index]!;
    const position = line - 1;
    switch (record.type) {
      case 'session':
        if (index !== 0) throw corrupt(line, 'a second session header');
        return;
      case 'user': {
        closeOpenCalls();
        const item: HistoryItem = { type: 'message', role: 'user', text: record.text };
        positions.set(item, position);
        push(item, position);
        return;
      }
      case 'response':
        closeOpenCalls();
        for (const item of record.output) {
          if (item.type === 'function_call') {
            if (calls.has(item.call_id) || usedCallIds.has(item.call_id)) throw corrupt(line, `call id ${item.call_id} is used twice`);
            const call: OpenCall = { call_id: item.call_id, name: item.name, arguments: item.arguments, started: false, resolved: false, origin: position };
            calls.set(item.call_id, call);
            open.push(call);
          } else if (item.type === 'function_call_output') {
            throw corrupt(line, 'a model response cannot contain a tool output');
          }
          push(item, position);
        }
        if (record.usage) lastUsage = { tokens: record.usage.inputTokens + record.usage.outputTokens, coveredItems: history.length };
        return;
      case 'confirmation': {
        // Display only; it must still belong to a call of this log that has not run yet.
        const call = pendingCall(record.call_id, line, 'a confirmation');
        if (call.started || record.name !== call.name) throw corrupt(line, `the confirmation for call ${record.call_id} does not match the call the model made`);
        return;
      }
      case 'tool_start': {
        const call = pendingCall(record.call_id, line, 'a tool start');
        if (call.started) throw corrupt(line, `call ${record.call_id} is started twice`);
        if (record.name !== call.name || record.arguments !== call.arguments) {
          throw corrupt(line, `the tool start for call ${record.call_id} does not match the call the model made`);
        }
        const validation = validate(record.name, record.arguments);
        if (!validation.ok) throw corrupt(line, `the recorded ${record.name} call does not pass validation (${validation.reason})`);
        call.started = true;
        if (record.temp_files) call.temp_files = record.temp_files;
        if (record.process_mark) call.process_mark = record.process_mark;
        return;
      }
      case 'tool_result': {
        const call = pendingCall(record.call_id, line, 'a tool result');
        call.resolved = true;
        push({ type: 'function_call_output', call_id: record.call_id, output: toolOutputForModel(record) }, call.origin);
        // A saved "unknown" result still needs the person to see it before the session goes on.
        if (record.status === 'unknown') unknown.push(unknownCall(call));
        return;
      }
      case 'acknowledge':
        for (const callId of record.call_ids) acknowledged.add(callId);
        return;
      case 'clear':
        closeOpenCalls();
        history.length = 0;
        origins = [];
        lastUsage = null;
        return;
      case 'compaction': {
        closeOpenCalls();
        if (record.keptFrom > position || record.summarized.to !== record.keptFrom) {
          throw corrupt(line, 'the compaction names records after itself');
        }
        // [summary] + every item from the kept record on: what the model saw after this compaction.
        const keptStart = origins.findIndex((origin) => origin >= record.keptFrom);
        const keep = keptStart === -1 ? history.length : keptStart;
        const summary: HistoryItem = { type: 'summary', text: record.summary, author: record.author };
        positions.set(summary, record.summarized.from);
        history.splice(0, keep, summary);
        origins = [record.summarized.from, ...origins.slice(keep)];
        lastUsage = null;
        return;
      }
      case 'turn_end':
      case 'title':
      // Checkpoint records say what files were and became; the model history holds none of them.
      case 'change':
      case 'reversal_start':
      case 'reversal_step':
      case 'reversal_end':
        return;
    }
  });
  closeOpenCalls();
  for (const callId of calls.keys()) usedCallIds.add(callId);

  const last = records.at(-1)!;
  return {
    id,
    projectDir: header.projectDir,
    createdAt: header.createdAt,
    updatedAt: recordTime(last),
    records,
    history,
    positions,
    lastUsage,
    usedCallIds,
    skippedRecords: skipTo > 1,
    unknownCalls: unknown.filter((call) => !acknowledged.has(call.call_id)),
    problems,
    title: lastTitle(content, refs),
  };
}

function unknownCall(call: OpenCall): UnknownCall {
  const { call_id, name, arguments: args, temp_files, process_mark } = call;
  return { call_id, name, arguments: args, ...(temp_files ? { temp_files } : {}), ...(process_mark ? { process_mark } : {}) };
}

/** The last good record whose line starts with `prefix` (as saved records start with their type), found from the end. */
function lastRecordStarting<T extends SessionRecord['type']>(
  content: Buffer,
  refs: LineRef[],
  prefix: Buffer,
  type: T,
  accept: (record: Extract<SessionRecord, { type: T }>, index: number) => boolean = () => true,
): Extract<SessionRecord, { type: T }> | null {
  for (let i = refs.length - 1; i > 0; i -= 1) {
    const ref = refs[i]!;
    if (ref.end - ref.start < prefix.length || !content.subarray(ref.start, ref.start + prefix.length).equals(prefix)) continue;
    const parsed = parseLine(decodeLine(content, ref).text);
    if (parsed.ok && parsed.record.type === type && accept(parsed.record as Extract<SessionRecord, { type: T }>, i)) return parsed.record as Extract<SessionRecord, { type: T }>;
  }
  return null;
}

/** The `keptFrom` of the last compaction record; null when there is none. */
function lastCompactionKeptFrom(content: Buffer, refs: LineRef[]): number | null {
  return lastRecordStarting(content, refs, COMPACTION_PREFIX, 'compaction', (record, index) => record.keptFrom <= index)?.keptFrom ?? null;
}

/** The title of the last title record, read from the bytes, so a resume that skips old records still has it. */
export function lastTitle(content: Buffer, refs: LineRef[] = lineRefs(content)): string | null {
  return lastRecordStarting(content, refs, TITLE_PREFIX, 'title')?.title ?? null;
}

export function recordTime(record: SessionRecord): string {
  return record.type === 'session' ? record.createdAt : record.at;
}

/**
 * A broken last line that opening for append already moved aside is still
 * worth telling the person about until the session moves on: reported while
 * no record is newer than the set-aside file.
 */
async function recentSetAsideProblems(file: string, lineCount: number, last: SessionRecord | undefined): Promise<LoadedSession['problems']> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.corrupt-`;
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((name) => name.startsWith(prefix));
  } catch (error) {
    // Only a note about earlier repairs is lost; the session itself loaded.
    log.warn('session.set_aside_scan_failed', { dir, error: errorText(error) });
    return [];
  }
  const lastTime = last ? recordTime(last) : '';
  const problems: LoadedSession['problems'] = [];
  for (const name of names.sort()) {
    const stamp = name.slice(prefix.length).replace(/^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3}Z)$/, '$1:$2:$3.$4');
    if (stamp >= lastTime) {
      problems.push({
        line: lineCount + 1,
        message: `Line ${lineCount + 1} was truncated or corrupt and was set aside in ${name}; every record before it was kept.`,
      });
    }
  }
  return problems;
}
