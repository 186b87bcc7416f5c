// The records of a session log, read from its bytes: every line is parsed,
// and a damaged line refuses the whole log, except a broken last line, which
// is set aside as a problem (opening for append moves it away). Resuming reads
// only from the last compaction's kept part on. A few records are found from
// the end without reading the rest: the last compaction, the last title, the
// last model choice.
import { brokenTailReason, decodeLine, lineRefs, parseLine, type LineRef } from './logLines';
import type { SessionRecord } from './records';
import { SessionLoadError } from './sessionErrors';

/** The error for a line that makes the log unloadable, naming the file and what to do. */
export type CorruptLine = (line: number, why: string) => SessionLoadError;

export function corruptLine(file: string): CorruptLine {
  return (line, why) =>
    new SessionLoadError(
      `The session file ${file} is corrupt at line ${line}: ${why}. The session was not loaded, so nothing in it is lost; fix or remove that line, or start a new session.`,
      { line },
    );
}

export interface LogRecords {
  /** Every good record read, in order; the first is the header. */
  records: SessionRecord[];
  /** The 1-based line each record came from. */
  recordLines: number[];
  /** A broken last line that was not loaded. */
  problems: Array<{ line: number; message: string }>;
  /** Lines between the header and the kept part were not read as records. */
  skipped: boolean;
  /** The call ids of the lines not read, so a new call cannot reuse one. */
  skippedCallIds: Set<string>;
}

const COMPACTION_PREFIX = Buffer.from('{"type":"compaction"', 'utf8');
const TITLE_PREFIX = Buffer.from('{"type":"title"', 'utf8');
const MODEL_PREFIX = Buffer.from('{"type":"model"', 'utf8');
const CALL_ID = /"call_id":"((?:[^"\\]|\\.)*)"/g;

/** Reads the records of `content`; with `fromLastCompaction`, the header and the last compaction's kept part on. */
export function readLogRecords(content: Buffer, refs: LineRef[], fromLastCompaction: boolean, corrupt: CorruptLine): LogRecords {
  const keptFrom = fromLastCompaction ? lastCompactionKeptFrom(content, refs) : null;
  const skipTo = keptFrom !== null && keptFrom > 1 ? keptFrom : 1;
  const read: LogRecords = { records: [], recordLines: [], problems: [], skipped: skipTo > 1, skippedCallIds: skippedCallIds(content, refs, skipTo) };
  refs.forEach((ref, index) => {
    if (index > 0 && index < skipTo) return;
    const line = decodeLine(content, ref);
    const isLast = ref.number === refs.length;
    if (isLast && ref.number > 1) {
      const reason = brokenTailReason(line);
      if (reason !== undefined) {
        read.problems.push({ line: line.number, message: `Line ${line.number} was not loaded because ${reason}; every record before it was kept.` });
        return;
      }
    }
    const parsed = parseLine(line.text);
    if (!parsed.ok) throw corrupt(line.number, parsed.reason);
    read.records.push(parsed.record);
    read.recordLines.push(line.number);
  });
  return read;
}

/** The call ids on the lines between the header and `skipTo`, read without parsing the records. */
function skippedCallIds(content: Buffer, refs: LineRef[], skipTo: number): Set<string> {
  const ids = new Set<string>();
  if (skipTo <= 1) return ids;
  const skipped = content.subarray(refs[1]!.start, refs[skipTo]!.start).toString('utf8');
  for (const match of skipped.matchAll(CALL_ID)) ids.add(match[1]!.includes('\\') ? (JSON.parse(`"${match[1]}"`) as string) : match[1]!);
  return ids;
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

/** The service and model a session uses now: its last model record, read from the bytes like the title; null in a log that has none. */
export function lastModelChoice(content: Buffer, refs: LineRef[] = lineRefs(content)): { service: string; model: string } | null {
  const record = lastRecordStarting(content, refs, MODEL_PREFIX, 'model');
  return record ? { service: record.service, model: record.model } : null;
}
