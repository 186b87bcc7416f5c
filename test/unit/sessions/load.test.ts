import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findUnpairedCalls } from '../../../src/main/core/model/history';
import { loadSession, SessionLoadError, toolOutputForModel } from '../../../src/main/core/sessions/load';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { makeTempHome, readCall, recordingValidator, type TempHome } from './fixtures';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome();
});
afterEach(async () => {
  await t.cleanup();
});

const UNKNOWN_OUTPUT = JSON.stringify({
  status: 'unknown',
  output:
    'The process stopped while this call was running; its outcome is unknown. It was not run again. Check the project before relying on it.',
});
const NOT_RUN_OUTPUT = JSON.stringify({ status: 'error', output: 'Not run: the session stopped before this call started.' });

/** A session whose process stopped after the tool start of c1 was saved. */
async function crashedMidCall(): Promise<SessionLog> {
  const log = await SessionLog.create(t.home, t.project);
  await log.append({ type: 'user', text: 'edit it' });
  await log.append({ type: 'response', responseId: 'r1', output: [readCall('c1')] });
  await log.append({ ...readCall('c1'), type: 'tool_start' });
  await log.close();
  return log;
}

async function expectLoadError(promise: Promise<unknown>): Promise<SessionLoadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionLoadError);
  return error as SessionLoadError;
}

describe('loadSession', () => {
  it('turns a tool start without a result into an unknown result that is listed until acknowledged, and never re-run', async () => {
    const log = await crashedMidCall();
    const validate = recordingValidator();
    const loaded = await loadSession(t.home, log.id, validate);
    expect(loaded.history).toEqual([
      { type: 'message', role: 'user', text: 'edit it' },
      readCall('c1'),
      { type: 'function_call_output', call_id: 'c1', output: UNKNOWN_OUTPUT },
    ]);
    expect(loaded.unknownCalls).toEqual([{ call_id: 'c1', name: 'read_file', arguments: readCall('c1').arguments }]);

    const again = await SessionLog.openForAppend(t.home, log.id);
    await again.append({ type: 'acknowledge', call_ids: ['c1'] });
    await again.close();
    const acknowledged = await loadSession(t.home, log.id, validate);
    expect(acknowledged.unknownCalls).toEqual([]);
    // The model still reads that the outcome is unknown.
    expect(acknowledged.history.at(-1)).toEqual({ type: 'function_call_output', call_id: 'c1', output: UNKNOWN_OUTPUT });
  });

  it('places the synthesized unknown result before the next user message, keeping the history paired', async () => {
    const log = await crashedMidCall();
    const again = await SessionLog.openForAppend(t.home, log.id);
    await again.append({ type: 'acknowledge', call_ids: ['c1'] });
    await again.append({ type: 'user', text: 'go on' });
    await again.close();
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.history.slice(-2)).toEqual([
      { type: 'function_call_output', call_id: 'c1', output: UNKNOWN_OUTPUT },
      { type: 'message', role: 'user', text: 'go on' },
    ]);
    expect(findUnpairedCalls(loaded.history)).toEqual([]);
  });

  it('pairs a call that never started with an error result that needs no acknowledgment', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'two reads' });
    await log.append({ type: 'response', responseId: 'r1', output: [readCall('c1'), readCall('c2', 'b.ts')] });
    await log.append({ type: 'tool_result', call_id: 'c1', name: 'read_file', status: 'completed', output: 'A' });
    await log.close();
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.history.slice(-2)).toEqual([
      { type: 'function_call_output', call_id: 'c1', output: toolOutputForModel({ status: 'completed', output: 'A' }) },
      { type: 'function_call_output', call_id: 'c2', output: NOT_RUN_OUTPUT },
    ]);
    expect(loaded.unknownCalls).toEqual([]);
  });

  it('keeps a saved unknown result listed until it is acknowledged', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'x' });
    await log.append({ type: 'response', responseId: 'r1', output: [readCall('c1')] });
    await log.append({ type: 'tool_result', call_id: 'c1', name: 'read_file', status: 'unknown', output: 'lost track' });
    await log.close();
    expect((await loadSession(t.home, log.id, recordingValidator())).unknownCalls.map((c) => c.call_id)).toEqual(['c1']);
  });

  it('runs only the pure validation on load: it loads after the project folder is deleted, validating every tool start', async () => {
    const log = await crashedMidCall();
    await fs.rm(t.project, { recursive: true });
    const validate = recordingValidator();
    const loaded = await loadSession(t.home, log.id, validate);
    expect(validate.seen).toEqual([{ name: 'read_file', args: readCall('c1').arguments }]);
    expect(loaded.projectDir).toBe(t.project);
  });

  it('reports a recorded tool start that fails validation as a corrupt record with its line number', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'x' });
    await log.append({ type: 'response', responseId: 'r1', output: [readCall('c1', '/etc/passwd')] });
    await log.append({ ...readCall('c1', '/etc/passwd'), type: 'tool_start' });
    await log.append({ type: 'tool_result', call_id: 'c1', name: 'read_file', status: 'completed', output: 'root' });
    await log.close();
    const error = await expectLoadError(loadSession(t.home, log.id, recordingValidator()));
    expect(error.line).toBe(4);
    expect(error.message).toContain('line 4');
    expect(error.message).toContain('project-relative');
  });

  it('throws for corruption in the middle of the file, naming the file and the line', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'one' });
    await log.append({ type: 'user', text: 'two' });
    await log.close();
    const lines = (await fs.readFile(log.file, 'utf8')).split('\n');
    lines[1] = lines[1]!.slice(0, 10); // line 2 cut short, line 3 intact after it
    await fs.writeFile(log.file, lines.join('\n'));
    const error = await expectLoadError(loadSession(t.home, log.id, recordingValidator()));
    expect(error.line).toBe(2);
    expect(error.message).toContain(log.file);
    expect(error.message).toContain('line 2');
  });

  it('reports a truncated last line as a problem and keeps every record before it', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'kept' });
    await log.close();
    await fs.appendFile(log.file, '{"type":"user","text":"cut sh');
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.records.map((r) => r.type)).toEqual(['session', 'user']);
    expect(loaded.problems).toEqual([{ line: 3, message: expect.stringContaining('Line 3') }]);
  });

  it('sets a corrupt last line aside in a private .corrupt- file on reopening, so the next append makes a valid log', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'kept' });
    await log.close();
    const good = await fs.readFile(log.file, 'utf8');
    const broken = '{"type":"response","responseId":"r1","outp';
    await fs.appendFile(log.file, broken);

    const again = await SessionLog.openForAppend(t.home, log.id);
    expect(again.setAside?.line).toBe(3);
    expect(path.basename(again.setAside!.file)).toMatch(new RegExp(`^${log.id}\\.jsonl\\.corrupt-`));
    expect(await fs.readFile(again.setAside!.file, 'utf8')).toBe(broken);
    expect((await fs.stat(again.setAside!.file)).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(log.file, 'utf8')).toBe(good);

    // Loading right after still tells the person about it.
    const reported = await loadSession(t.home, log.id, recordingValidator());
    expect(reported.problems).toEqual([{ line: 3, message: expect.stringContaining(path.basename(again.setAside!.file)) }]);

    await again.append({ type: 'user', text: 'after' });
    await again.close();
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.history.map((h) => (h as { text: string }).text)).toEqual(['kept', 'after']);
    expect(loaded.problems).toEqual([]);
  });

  it('keeps a complete last record whose newline was lost, and ends its line before the next append', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'whole' });
    await log.close();
    await fs.truncate(log.file, (await fs.stat(log.file)).size - 1);
    const again = await SessionLog.openForAppend(t.home, log.id);
    expect(again.setAside).toBeUndefined();
    await again.append({ type: 'user', text: 'next' });
    await again.close();
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.history.map((h) => (h as { text: string }).text)).toEqual(['whole', 'next']);
    expect(loaded.problems).toEqual([]);
  });

  it('empties the history after a clear but keeps the id and every record', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'old' });
    await log.append({ type: 'clear' });
    await log.append({ type: 'user', text: 'new' });
    await log.close();
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.id).toBe(log.id);
    expect(loaded.records.map((r) => r.type)).toEqual(['session', 'user', 'clear', 'user']);
    expect(loaded.history).toEqual([{ type: 'message', role: 'user', text: 'new' }]);
  });

  it('refuses an id that is not 32 lowercase hex, and names a session that does not exist', async () => {
    await expect(loadSession(t.home, '../../etc/passwd', recordingValidator())).rejects.toBeInstanceOf(SessionLoadError);
    const missing = await expectLoadError(loadSession(t.home, 'a'.repeat(32), recordingValidator()));
    expect(missing.message).toContain(`There is no saved session ${'a'.repeat(32)}`);
  });

  it('refuses a tool result for a call no saved response made, with its line', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'x' });
    await log.append({ type: 'tool_result', call_id: 'ghost', name: 'read_file', status: 'completed', output: '' });
    await log.append({ type: 'turn_end', status: 'completed' });
    await log.close();
    const error = await expectLoadError(loadSession(t.home, log.id, recordingValidator()));
    expect(error.line).toBe(3);
  });

  it('keeps a saved confirmation out of the model history and refuses one for a call no response made or one already run', async () => {
    const shown = { tool: 'read_file', fields: [{ label: 'Path', value: 'a.txt' }] };
    const good = await SessionLog.create(t.home, t.project);
    await good.append({ type: 'user', text: 'x' });
    await good.append({ type: 'response', responseId: 'r1', output: [readCall('c1')] });
    await good.append({ type: 'confirmation', call_id: 'c1', name: readCall('c1').name, asked: true, mode: 'manual', confirmation: shown });
    await good.append({ ...readCall('c1'), type: 'tool_start' });
    await good.append({ type: 'tool_result', call_id: 'c1', name: readCall('c1').name, status: 'completed', output: 'ok' });
    await good.close();
    const loaded = await loadSession(t.home, good.id, recordingValidator());
    expect(loaded.records.map((r) => r.type)).toEqual(['session', 'user', 'response', 'confirmation', 'tool_start', 'tool_result']);
    expect(loaded.history.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output']);

    const ghost = await SessionLog.create(t.home, t.project);
    await ghost.append({ type: 'user', text: 'x' });
    await ghost.append({ type: 'confirmation', call_id: 'ghost', name: 'read_file', asked: true, mode: 'manual', confirmation: shown });
    await ghost.close();
    expect((await expectLoadError(loadSession(t.home, ghost.id, recordingValidator()))).line).toBe(3);

    const late = await SessionLog.create(t.home, t.project);
    await late.append({ type: 'user', text: 'x' });
    await late.append({ type: 'response', responseId: 'r1', output: [readCall('c1')] });
    await late.append({ ...readCall('c1'), type: 'tool_start' });
    await late.append({ type: 'confirmation', call_id: 'c1', name: readCall('c1').name, asked: true, mode: 'manual', confirmation: shown });
    await late.close();
    expect((await expectLoadError(loadSession(t.home, late.id, recordingValidator()))).line).toBe(5);
  });

  it('loads a session of 10,000 records', async () => {
    const log = await SessionLog.create(t.home, t.project);
    const at = new Date().toISOString();
    const lines: string[] = [];
    for (let i = 0; i < 2_500; i++) {
      const call = readCall(`c${i}`, `f${i}.ts`);
      lines.push(
        JSON.stringify({ type: 'user', text: `read f${i}`, at }),
        JSON.stringify({ type: 'response', responseId: `r${i}`, output: [call], at }),
        JSON.stringify({ ...call, type: 'tool_start', at }),
        JSON.stringify({ type: 'tool_result', call_id: call.call_id, name: call.name, status: 'completed', output: `content ${i}`, at }),
      );
    }
    await log.close();
    await fs.appendFile(log.file, `${lines.join('\n')}\n`);
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.records).toHaveLength(10_001);
    expect(loaded.history).toHaveLength(7_500); // user message, call and output per round
    expect(findUnpairedCalls(loaded.history)).toEqual([]);
  });

  it('always yields a paired history, wherever the process stopped in a turn', async () => {
    // Each scenario: the loop's record order for some calls, cut after any record.
    const scenario = fc.record({
      calls: fc.integer({ min: 0, max: 3 }),
      outcomes: fc.array(fc.constantFrom('result', 'started', 'never'), { minLength: 3, maxLength: 3 }),
      cut: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ calls, outcomes, cut }) => {
        const log = await SessionLog.create(t.home, t.project);
        const records: Parameters<SessionLog['append']>[0][] = [{ type: 'user', text: 'go' }];
        const made = Array.from({ length: calls }, (_, i) => readCall(`c${i}`));
        records.push({ type: 'response', responseId: 'r', output: [{ type: 'message', role: 'assistant', text: 'on it' }, ...made] });
        made.forEach((call, i) => {
          if (outcomes[i] !== 'never') records.push({ ...call, type: 'tool_start' });
          if (outcomes[i] === 'result') records.push({ type: 'tool_result', call_id: call.call_id, name: call.name, status: 'completed', output: 'ok' });
        });
        records.push({ type: 'user', text: 'next' });
        for (const record of records.slice(0, 1 + (cut % records.length))) await log.append(record);
        await log.close();
        const loaded = await loadSession(t.home, log.id, recordingValidator());
        expect(findUnpairedCalls(loaded.history)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
