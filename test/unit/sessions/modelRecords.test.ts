// A session's service and model in its log: a `model` record when it starts
// and whenever it changes, the model on each response. Loading gives the
// session's current choice, also when resuming skips the records before a
// compaction; logs from before services (no such records) still load.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSession, sessionModelChoice } from '../../../src/main/core/sessions/load';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { makeTempHome, recordingValidator, type TempHome } from './fixtures';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome();
});
afterEach(async () => t.cleanup());

const answer = (text: string) => [{ type: 'message' as const, role: 'assistant' as const, text }];

describe('the model records of a session log', () => {
  it('gives the last model record as the session\'s service and model, and keeps the history across a switch', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'model', service: 'ollama', model: 'qwen3' });
    await log.append({ type: 'user', text: 'one' });
    await log.append({ type: 'response', responseId: 'r1', output: answer('first'), model: 'qwen3' });
    await log.append({ type: 'model', service: 'claude', model: 'claude-sonnet-4-5' });
    await log.append({ type: 'user', text: 'two' });
    await log.append({ type: 'response', responseId: 'r2', output: answer('second'), model: 'claude-sonnet-4-5' });
    await log.close();

    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.model).toEqual({ service: 'claude', model: 'claude-sonnet-4-5' });
    expect(loaded.history.map((item) => (item.type === 'message' ? item.text : item.type))).toEqual(['one', 'first', 'two', 'second']);
    expect(loaded.records.filter((record) => record.type === 'response').map((record) => record.model)).toEqual(['qwen3', 'claude-sonnet-4-5']);
    expect(await sessionModelChoice(t.home, log.id)).toEqual({ service: 'claude', model: 'claude-sonnet-4-5' });
  });

  it('finds the choice when resuming reads only from the last compaction on', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'model', service: 'ollama', model: 'qwen3' });
    await log.append({ type: 'user', text: 'one' });
    await log.append({ type: 'response', responseId: 'r1', output: answer('first') });
    const kept = await log.append({ type: 'user', text: 'two' });
    await log.append({ type: 'response', responseId: 'r2', output: answer('second') });
    await log.append({
      type: 'compaction', trigger: 'manual', author: 'model', summary: 'Said one.', summarized: { from: 2, to: kept }, keptFrom: kept,
      tokensBefore: 100, tokensAfter: 10, counter: 'estimate',
    });
    await log.close();

    const resumed = await loadSession(t.home, log.id, recordingValidator(), { fromLastCompaction: true });
    expect(resumed.skippedRecords).toBe(true);
    expect(resumed.records.some((record) => record.type === 'model')).toBe(false);
    expect(resumed.model).toEqual({ service: 'ollama', model: 'qwen3' });
  });

  it('loads a log from before services: no model records, responses without a model', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await log.append({ type: 'user', text: 'one' });
    await log.append({ type: 'response', responseId: 'r1', output: answer('first') });
    await log.close();
    const loaded = await loadSession(t.home, log.id, recordingValidator());
    expect(loaded.model).toBeNull();
    expect(loaded.history).toHaveLength(2);
    expect(await sessionModelChoice(t.home, log.id)).toBeNull();
  });

  it('refuses to save a model record without a service or a model', async () => {
    const log = await SessionLog.create(t.home, t.project);
    await expect(log.append({ type: 'model', service: '', model: 'm' })).rejects.toThrow('Refusing to save a malformed session record');
    await log.close();
  });
});
