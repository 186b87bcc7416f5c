// Reading a session log's lines. Shared by loading (which reports problems)
// and by opening for append (which sets a broken last line aside), so both
// agree on what "the last line is broken" means.
import { SessionRecordSchema, type SessionRecord } from './records';
import { issueText } from '../../../shared/zodIssues';

export type ParsedLine = { ok: true; record: SessionRecord } | { ok: false; reason: string };

export function parseLine(text: string): ParsedLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'it is not valid JSON' };
  }
  const parsed = SessionRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `it is not a valid session record (${issue ? issueText(issue, { quotePaths: true }) : 'unknown shape'})` };
  }
  return { ok: true, record: parsed.data };
}

export interface LogLine {
  /** 1-based line number. */
  number: number;
  text: string;
  /** Byte offset of the line's first byte. */
  start: number;
  /** False for a final line that lost its newline (a write cut short). */
  terminated: boolean;
}

/** Where each line is, without decoding it. */
export type LineRef = Omit<LogLine, 'text'> & { end: number };

export function lineRefs(content: Buffer): LineRef[] {
  const lines: LineRef[] = [];
  let start = 0;
  let number = 1;
  while (start < content.length) {
    const end = content.indexOf(0x0a, start);
    if (end === -1) {
      lines.push({ number, start, end: content.length, terminated: false });
      break;
    }
    lines.push({ number, start, end, terminated: true });
    start = end + 1;
    number++;
  }
  return lines;
}

export function decodeLine(content: Buffer, ref: LineRef): LogLine {
  return { number: ref.number, text: content.subarray(ref.start, ref.end).toString('utf8'), start: ref.start, terminated: ref.terminated };
}

/** Splits the log into lines; a final newline ends the last line rather than starting an empty one. */
export function splitLog(content: Buffer): LogLine[] {
  return lineRefs(content).map((ref) => decodeLine(content, ref));
}

/**
 * Why the last line cannot be kept, or undefined when it holds a good record.
 * A record that parses is complete even if its newline was lost (a JSON
 * object cannot be cut short and still parse), so it is kept.
 */
export function brokenTailReason(line: LogLine): string | undefined {
  const parsed = parseLine(line.text);
  if (parsed.ok) return undefined;
  return line.terminated ? parsed.reason : `it is truncated (${parsed.reason})`;
}
