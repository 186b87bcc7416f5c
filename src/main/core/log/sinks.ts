// Where the trail goes: a file per day (the desktop), or a stream (the CLI's
// stderr with --verbose). Both write synchronously, so lines keep their order
// and the last one before a crash is on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogSink } from './log';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const LOG_FILE = /^mino-(\d{4}-\d{2}-\d{2})\.log$/;

export interface DailyFileSinkOptions {
  /** ~/.mino/logs */
  dir: string;
  /** Days of files kept, today's included. */
  keepDays?: number;
  now?: () => Date;
}

/** The file a day's lines go to: mino-YYYY-MM-DD.log, by the local date. */
export function logFileFor(dir: string, at: Date): string {
  return path.join(dir, `mino-${localDate(at)}.log`);
}

/** Writes mino-YYYY-MM-DD.log (0600, in a 0700 directory); on each new day, removes files older than `keepDays`. */
export function dailyFileSink(options: DailyFileSinkOptions): LogSink {
  const keepDays = options.keepDays ?? 7;
  const now = options.now ?? (() => new Date());
  let openDay: string | null = null;
  return {
    write(line) {
      const at = now();
      const day = localDate(at);
      const file = logFileFor(options.dir, at);
      const opening = day !== openDay;
      if (opening) {
        fs.mkdirSync(options.dir, { recursive: true, mode: DIR_MODE });
        fs.chmodSync(options.dir, DIR_MODE);
        prune(options.dir, at, keepDays);
      }
      fs.appendFileSync(file, `${line}\n`, { mode: FILE_MODE });
      if (opening) {
        // appendFile's mode applies only when it creates the file; one left from before may be looser.
        fs.chmodSync(file, FILE_MODE);
        openDay = day;
      }
    },
  };
}

export function streamSink(stream: { write(text: string): unknown }): LogSink {
  return { write: (line) => void stream.write(`${line}\n`) };
}

function prune(dir: string, at: Date, keepDays: number): void {
  const oldestKept = new Date(at);
  oldestKept.setDate(oldestKept.getDate() - (keepDays - 1));
  const cutoff = localDate(oldestKept);
  for (const name of fs.readdirSync(dir)) {
    const day = LOG_FILE.exec(name)?.[1];
    if (day !== undefined && day < cutoff) fs.rmSync(path.join(dir, name), { force: true });
  }
}

function localDate(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
