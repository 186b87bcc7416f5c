// The trail: one line per event, secrets blanked, a sink that fails never
// breaks the caller, and the desktop's daily files: 0600, rotated by day,
// a week kept.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addLogSecrets, addLogSink, formatLogLine, log } from '../../../src/main/core/log/log';
import { dailyFileSink, logFileFor, streamSink } from '../../../src/main/core/log/sinks';

const stops: Array<() => void> = [];
const dirs: string[] = [];
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

function capture(): string[] {
  const lines: string[] = [];
  stops.push(addLogSink({ write: (line) => lines.push(line) }));
  return lines;
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mino-log-'));
  dirs.push(dir);
  return dir;
}

describe('log lines', () => {
  it('are one line each: time, level, event, then fields, quoted only when needed', () => {
    const line = formatLogLine(new Date('2026-12-01T09:56:17.123Z'), 'warn', 'ipc.refused', {
      channel: 'app:info',
      reason: 'Refused app:info: not a "Mino" window\nsecond line',
      sender: 7,
      skipped: undefined,
      error: new Error('boom'),
    });
    expect(line).toBe('2026-12-01T09:56:17.123Z warn ipc.refused channel=app:info reason="Refused app:info: not a \\"Mino\\" window\\nsecond line" sender=7 error=boom');
    expect(line).not.toContain('\n');
  });

  it('never carry the value of a configured secret, raw or as quoted in a field', () => {
    const lines = capture();
    addLogSecrets(['sk-live-abcdef123456', 'tok"en\\x', 'abc', undefined]);
    log.error('model.failed', { error: 'Incorrect API key provided: sk-live-abcdef123456.', header: 'Bearer tok"en\\x', short: 'abc' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('sk-live-abcdef123456');
    expect(lines[0]).not.toContain('tok');
    expect(lines[0]).toContain('Incorrect API key provided: [redacted].');
    // Values too short to be credentials are left alone rather than blanking ordinary words.
    expect(lines[0]).toContain('short=abc');
  });

  it('go to every sink, and a sink that throws breaks neither the caller nor the others', () => {
    stops.push(addLogSink({ write: () => { throw new Error('disk full'); } }));
    const lines = capture();
    expect(() => log.info('app.start', { version: '1' })).not.toThrow();
    expect(lines).toEqual([expect.stringMatching(/ info app\.start version=1$/)]);
  });

  it('reach a stream sink as lines', () => {
    let text = '';
    stops.push(addLogSink(streamSink({ write: (chunk: string) => (text += chunk) })));
    log.warn('mcp.exited', { server: 'files' });
    log.warn('mcp.exited', { server: 'docs' });
    expect(text.split('\n')).toEqual([expect.stringMatching(/server=files$/), expect.stringMatching(/server=docs$/), '']);
  });
});

describe('the daily log file', () => {
  it('is mino-YYYY-MM-DD.log, 0600 in a 0700 folder, even where an older file was looser', () => {
    const dir = path.join(tempDir(), 'logs');
    const now = new Date(2026, 11, 1, 10, 0);
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.writeFileSync(logFileFor(dir, now), 'earlier\n', { mode: 0o644 });
    fs.chmodSync(logFileFor(dir, now), 0o644);
    const sink = dailyFileSink({ dir, now: () => now });
    sink.write('one');
    sink.write('two');
    expect(path.basename(logFileFor(dir, now))).toBe('mino-2026-12-01.log');
    expect(fs.readFileSync(logFileFor(dir, now), 'utf8')).toBe('earlier\none\ntwo\n');
    expect(fs.statSync(logFileFor(dir, now)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('starts a new file each day and keeps a week of them', () => {
    const dir = path.join(tempDir(), 'logs');
    fs.mkdirSync(dir);
    // Ten days of files from before, and one that is not a log.
    for (let day = 1; day <= 10; day++) fs.writeFileSync(path.join(dir, `mino-2026-11-${String(day + 20).padStart(2, '0')}.log`), 'old\n');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine\n');
    let now = new Date(2026, 11, 1, 23, 59);
    const sink = dailyFileSink({ dir, now: () => now });
    sink.write('late on the first');
    now = new Date(2026, 11, 2, 0, 1);
    sink.write('early on the second');
    expect(fs.readdirSync(dir).sort()).toEqual([
      'mino-2026-11-26.log',
      'mino-2026-11-27.log',
      'mino-2026-11-28.log',
      'mino-2026-11-29.log',
      'mino-2026-11-30.log',
      'mino-2026-12-01.log',
      'mino-2026-12-02.log',
      'notes.txt',
    ]);
    expect(fs.readFileSync(path.join(dir, 'mino-2026-12-01.log'), 'utf8')).toBe('late on the first\n');
    expect(fs.readFileSync(path.join(dir, 'mino-2026-12-02.log'), 'utf8')).toBe('early on the second\n');
  });
});
