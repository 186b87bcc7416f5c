import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSession } from '../../../src/main/core/sessions/load';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { makeTempHome, readCall, recordingValidator, type TempHome } from './fixtures';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.cleanup();
});

const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;
const fileLines = async (file: string) => (await fs.readFile(file, 'utf8')).split('\n');

describe('SessionLog', () => {
  it('creates ~/.mino and its sessions folder 0700 and the log 0600, named by a 32-hex id, starting with the header', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.close();
    expect(log.id).toMatch(/^[0-9a-f]{32}$/);
    expect(log.file).toBe(path.join(t.sessionsDir, `${log.id}.jsonl`));
    expect(await mode(path.join(t.home, '.mino'))).toBe(0o700);
    expect(await mode(t.sessionsDir)).toBe(0o700);
    expect(await mode(log.file)).toBe(0o600);
    const [header, rest] = await fileLines(log.file);
    expect(JSON.parse(header!)).toMatchObject({ type: 'session', version: 1, id: log.id, projectDir: t.project });
    expect(rest).toBe('');
  });

  it('tightens an existing ~/.mino that was left group- and world-readable', async () => {
    await fs.mkdir(t.sessionsDir, { recursive: true, mode: 0o755 });
    await fs.chmod(path.join(t.home, '.mino'), 0o755);
    await fs.chmod(t.sessionsDir, 0o777);
    const log = await SessionLog.create(t.home, t.project);
    await log.close();
    expect(await mode(path.join(t.home, '.mino'))).toBe(0o700);
    expect(await mode(t.sessionsDir)).toBe(0o700);
  });

  it('round-trips user, response, tool start, result and turn end records through a load', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'read a' });
    await log.append({ type: 'response', responseId: 'r1', output: [{ type: 'message', role: 'assistant', text: 'ok' }, readCall('c1')] });
    await log.append({ ...readCall('c1'), type: 'tool_start' });
    await log.append({ type: 'tool_result', call_id: 'c1', name: 'read_file', status: 'completed', output: 'A' });
    await log.append({ type: 'response', responseId: 'r2', output: [{ type: 'message', role: 'assistant', text: 'done' }] });
    await log.append({ type: 'turn_end', status: 'completed' });
    await log.close();

    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.records.map((r) => r.type)).toEqual(['session', 'user', 'response', 'tool_start', 'tool_result', 'response', 'turn_end']);
    expect(loaded.projectDir).toBe(t.project);
    expect(loaded.updatedAt).toBe((loaded.records.at(-1) as { at: string }).at);
    expect(loaded.history).toEqual([
      { type: 'message', role: 'user', text: 'read a' },
      { type: 'message', role: 'assistant', text: 'ok' },
      readCall('c1'),
      { type: 'function_call_output', call_id: 'c1', output: '{"status":"completed","output":"A"}' },
      { type: 'message', role: 'assistant', text: 'done' },
    ]);
    expect(loaded.unknownCalls).toEqual([]);
    expect(loaded.problems).toEqual([]);
  });

  it('writes each record as one whole line and fsyncs it before append resolves', async () => {
    const log = await SessionLog.create(t.home, t.project);
    const handleProto = Object.getPrototypeOf((log as unknown as { handle: object }).handle) as { write: () => unknown; sync: () => unknown };
    const calls: string[] = [];
    const write = handleProto.write;
    const sync = handleProto.sync;
    vi.spyOn(handleProto, 'write').mockImplementation(function (this: unknown, ...args: unknown[]) {
      calls.push('write');
      return (write as (...a: unknown[]) => unknown).apply(this, args);
    });
    vi.spyOn(handleProto, 'sync').mockImplementation(function (this: unknown, ...args: unknown[]) {
      calls.push('sync');
      return (sync as (...a: unknown[]) => unknown).apply(this, args);
    });
    for (const text of ['one', 'two', 'three']) {
      await log.append({ type: 'user', text });
      const lines = await fileLines(log.file);
      expect(lines.at(-1)).toBe(''); // the file ends with a newline after every append
      expect(JSON.parse(lines.at(-2)!)).toMatchObject({ type: 'user', text });
    }
    await log.close();
    expect(calls).toEqual(['write', 'sync', 'write', 'sync', 'write', 'sync']);
  });

  it('keeps concurrent appends in call order, each on its own line', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.append({ type: 'user', text: `m${i}` })));
    await log.close();
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.records.slice(1).map((r) => (r as { text: string }).text)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
  });

  it('refuses a malformed record and writes nothing', async () => {
    const log = await SessionLog.create(t.home, t.project);
    const before = await fs.readFile(log.file, 'utf8');
    await expect(log.append({ type: 'tool_result', call_id: 'c', name: 'x', status: 'bogus', output: '' } as never)).rejects.toThrow(/malformed session record/);
    await log.close();
    expect(await fs.readFile(log.file, 'utf8')).toBe(before);
  });

  it('continues an existing log after reopening it', async () => {
    const first = await SessionLog.create(t.home, t.project);
    await first.append({ type: 'user', text: 'before' });
    await first.close();
    const again = await SessionLog.openForAppend(t.home, first.id);
    await again.append({ type: 'user', text: 'after' });
    await again.close();
    expect(again.setAside).toBeUndefined();
    const loaded = await loadSession(t.home, first.id, recordingValidator());
    expect(loaded.history.map((h) => (h as { text: string }).text)).toEqual(['before', 'after']);
  });

  it(
    'raises SessionSaveError when the disk refuses the write (a file size limit, RLIMIT_FSIZE, that root cannot bypass) and refuses later records',
    async () => {
      const script = path.join(__dirname, 'fixtures', 'appendUntilRejected.ts');
      const repoRoot = path.resolve(__dirname, '../../..');
      // 64 KiB: room for the header, not for the records the script keeps adding.
      const child = spawn('bash', ['-c', 'ulimit -f 64 && exec node --import tsx "$0" "$1"', script, t.home], {
        cwd: repoRoot,
        env: { ...process.env, TSX_DISABLE_CACHE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const result = JSON.parse(stdout) as { name: string; message: string; saved: number; laterRejected: string; id: string };
      expect(result.name).toBe('SessionSaveError');
      expect(result.message).toContain('the file has reached the largest size this system allows');
      expect(result.message).toContain('The turn was stopped and nothing further was run');
      expect(result.saved).toBeGreaterThan(0);
      expect(result.laterRejected).toBe('SessionSaveError');

      // Everything saved before the failure still loads; the cut-off record is reported, not lost silently.
      const loaded = await loadSession(t.home, result.id, recordingValidator());
      expect(loaded.records.filter((r) => r.type === 'user')).toHaveLength(result.saved);
      expect(loaded.problems).toHaveLength(1);
      expect(loaded.problems[0]!.line).toBe(result.saved + 2);
    },
  );
});
