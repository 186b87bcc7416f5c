// Loading a saved session: parse every record, check each recorded tool start
// with the tools' pure validation (never inspection, never execution), and
// rebuild the model history so every call is paired with an output. The
// stages are their own modules: lines to records (logRecords.ts), records to
// history (historyRebuild.ts).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MiB, PrivateFileError, readPrivateFile } from '../config/readPrivateFile';
import type { HistoryItem } from '../model/types';
import { sessionFile } from './ids';
import { lineRefs } from './logLines';
import type { SurvivorState } from '../../../shared/resumeNotices';
import { rebuildHistory } from './historyRebuild';
import { corruptLine, lastModelChoice, lastTitle, readLogRecords, type CorruptLine } from './logRecords';
import type { SessionRecord, TemporaryFileRecord } from './records';
import { SessionLoadError } from './sessionErrors';
import { errorText, log } from '../log/log';

export { lastModelChoice, lastTitle } from './logRecords';
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
  /** The service and model the session uses now (its last model record, found in the whole log); null in a log from before services. */
  model: { service: string; model: string } | null;
}

export interface LoadOptions {
  /**
   * Read only the header and the records from the last compaction's kept part
   * on: the history before it is replaced by the summary, so it is neither
   * parsed nor rebuilt (its call ids are still collected). For resuming.
   */
  fromLastCompaction?: boolean;
}

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

/** The service and model saved session `id` uses now, read without loading it; null when its log records none. */
export async function sessionModelChoice(homeDir: string, id: string): Promise<{ service: string; model: string } | null> {
  return lastModelChoice((await readSessionFile(homeDir, id)).content);
}

export async function loadSession(homeDir: string, id: string, validate: CallValidator, options: LoadOptions = {}): Promise<LoadedSession> {
  return parseSession(id, await readSessionFile(homeDir, id), validate, options);
}

/**
 * Loads a session from bytes already read (see readSessionFile): its lines
 * become records (logRecords.ts), the header must name this session, and the
 * records become the model history (historyRebuild.ts), each checked.
 */
export async function parseSession(
  id: string,
  { file, content }: SessionFileContent,
  validate: CallValidator,
  options: LoadOptions = {},
): Promise<LoadedSession> {
  const corrupt = corruptLine(file);
  const refs = lineRefs(content);
  const read = readLogRecords(content, refs, options.fromLastCompaction ?? false, corrupt);
  const header = sessionHeader(read.records, id, corrupt);
  const problems = [...read.problems, ...(await recentSetAsideProblems(file, refs.length, read.records.at(-1)))];
  const rebuilt = rebuildHistory(read.records, read.recordLines, validate, corrupt, read.skippedCallIds);
  return {
    id,
    projectDir: header.projectDir,
    createdAt: header.createdAt,
    updatedAt: recordTime(read.records.at(-1)!),
    records: read.records,
    history: rebuilt.history,
    positions: rebuilt.positions,
    lastUsage: rebuilt.lastUsage,
    usedCallIds: new Set([...read.skippedCallIds, ...rebuilt.callIds]),
    skippedRecords: read.skipped,
    unknownCalls: rebuilt.unknownCalls,
    problems,
    title: lastTitle(content, refs),
    model: lastModelChoice(content, refs),
  };
}

/** The first record, which must be the header of session `id`. */
function sessionHeader(records: readonly SessionRecord[], id: string, corrupt: CorruptLine): Extract<SessionRecord, { type: 'session' }> {
  const header = records[0];
  if (!header || header.type !== 'session') throw corrupt(1, 'the first line is not the session header');
  if (header.id !== id) throw corrupt(1, `the header names session ${header.id}, not ${id}`);
  return header;
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
