// The trail: one line for each thing worth knowing after the fact (an error
// that was deliberately ignored, a refused request, a server that exited, a
// repaired log), with enough context to diagnose a report. Core only writes
// to this port; the adapters decide where lines go (the desktop: a daily
// file under ~/.mino/logs; the CLI: stderr with --verbose; tests: nowhere
// unless they listen). Values of configured secrets never reach a line.
import { errorCode } from '../../../shared/errors';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Readonly<Record<string, unknown>>;

export interface LogSink {
  write(line: string): void;
}

const sinks = new Set<LogSink>();
const secrets = new Set<string>();
/** Shorter values are too likely to be ordinary words or numbers to blank out everywhere. */
const MIN_SECRET_LENGTH = 4;
const REDACTED = '[redacted]';

/** Sends every later line to `sink` as well; returns a function that stops it. */
export function addLogSink(sink: LogSink): () => void {
  sinks.add(sink);
  return () => {
    sinks.delete(sink);
  };
}

/** Values (API keys, MCP env and header values) replaced by [redacted] in every later line. */
export function addLogSecrets(values: Iterable<string | null | undefined>): void {
  for (const value of values) if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

export const log = {
  debug: (event: string, fields?: LogFields) => emit('debug', event, fields),
  info: (event: string, fields?: LogFields) => emit('info', event, fields),
  warn: (event: string, fields?: LogFields) => emit('warn', event, fields),
  error: (event: string, fields?: LogFields) => emit('error', event, fields),
};

/** What went wrong, for a field: the message and, when there is one, the error code. */
export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = errorCode(error);
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

function emit(level: LogLevel, event: string, fields: LogFields | undefined): void {
  if (sinks.size === 0) return;
  const line = redact(formatLogLine(new Date(), level, event, fields));
  for (const sink of sinks) {
    try {
      sink.write(line);
    } catch {
      // ignore: a sink that cannot write (a full disk, a closed stream) must never break what was being logged, and has nowhere else to say so
    }
  }
}

/** `2026-12-01T09:56:17.123Z warn ipc.refused channel=app:info reason="..."`: always one line. */
export function formatLogLine(at: Date, level: LogLevel, event: string, fields: LogFields = {}): string {
  const parts = [at.toISOString(), level, event];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(`${key}=${formatValue(value)}`);
  }
  return parts.join(' ');
}

function formatValue(value: unknown): string {
  const text = value instanceof Error ? errorText(value) : typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  // Bare when unambiguous; quoted (which also escapes newlines) when it has spaces, quotes, = or control characters.
  return /^[^\s"=\u0000-\u001f\u007f]+$/.test(text) ? text : JSON.stringify(text);
}

function redact(line: string): string {
  let out = line;
  // Longest first, so a secret that contains another is blanked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
    // A value quoted in the line is JSON-escaped; blank that spelling too.
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.split(escaped).join(REDACTED);
  }
  return out;
}
