// Checkpoints through the real loop, file tools, log and undo: pre-images
// kept before each write, reviewed per turn, undone and redone without ever
// clobbering later work. Only the model service is fake.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, type ConversationDeps } from '../../../src/main/core/agent/conversation';
import { DROPPED_NOTE } from '../../../src/main/core/checkpoints/changeSummary';
import { checkpointsDir } from '../../../src/main/core/checkpoints/preImageStore';
import { NothingToReverseError } from '../../../src/main/core/checkpoints/reverseChanges';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const ORIGINAL = 'line one\nline two\n\u00e9t\u00e9 \ud83d\ude00\n';

async function runTurn(fx: AgentFixture, conversation: Conversation, calls: Array<{ name: string; arguments: Record<string, unknown> }>, question = 'change things') {
  fx.server.enqueue({ calls: calls.map((c, i) => ({ ...c, call_id: `c${fx.server.requests.length}_${i}` })) }, { text: 'done' });
  const outcome = await conversation.ask(question, { mode: 'bypass', approver: recordingApprover() });
  expect(outcome.status).toBe('completed');
}

describe('checkpoints and undo', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('keeps pre-images privately under ~/.mino/checkpoints, and undo restores a file byte for byte with its mode', async () => {
    fx = await makeAgentFixture({ files: { 'notes.txt': ORIGINAL } });
    await fs.chmod(fx.file('notes.txt'), 0o640);
    const conversation = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, conversation, [
      { name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'line two', new_string: 'line 2' } },
      { name: 'write_file', arguments: { path: 'notes.txt', content: 'replaced\n', mode: 'overwrite' } },
    ]);
    expect(await fs.readFile(fx.file('notes.txt'), 'utf8')).toBe('replaced\n');

    const store = path.join(checkpointsDir(fx.home), conversation.id);
    expect((await fs.stat(checkpointsDir(fx.home))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(store)).mode & 0o777).toBe(0o700);
    for (const name of await fs.readdir(store)) expect((await fs.stat(path.join(store, name))).mode & 0o777).toBe(0o600);
    // Nothing of it inside the project.
    expect(await fs.readdir(fx.project)).toEqual(['notes.txt']);

    const [turn] = await conversation.changes();
    expect(turn).toMatchObject({ turn: 1, question: 'change things', untrackedNote: null });
    expect(turn.files).toMatchObject([{ path: 'notes.txt', action: 'overwritten', added: 1, removed: 3, state: 'applied' }]);
    expect(turn.files[0].diff).toContain('-line one');

    expect(await conversation.reversalPlan('undo')).toEqual({ turn: 1, paths: ['notes.txt'] });
    const report = await conversation.reverse('undo');
    expect(report).toMatchObject({ action: 'undo', turn: 1, files: [{ path: 'notes.txt', outcome: 'restored' }, { path: 'notes.txt', outcome: 'restored' }] });
    expect(await fs.readFile(fx.file('notes.txt'))).toEqual(Buffer.from(ORIGINAL, 'utf8'));
    expect((await fs.stat(fx.file('notes.txt'))).mode & 0o777).toBe(0o640);
    expect((await conversation.changes())[0].files[0].state).toBe('undone');
    await conversation.close();
  });

  it('undoes a create by removing the file, and a make_directory by removing the directories', async () => {
    fx = await makeAgentFixture();
    const conversation = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, conversation, [
      { name: 'make_directory', arguments: { path: 'src/lib' } },
      { name: 'write_file', arguments: { path: 'src/lib/new.ts', content: 'export {};\n', mode: 'create' } },
    ]);
    const [turn] = await conversation.changes();
    expect(turn.files.map((f) => [f.path, f.action, f.added])).toEqual([
      ['src', 'created directory', 0],
      ['src/lib', 'created directory', 0],
      ['src/lib/new.ts', 'created', 1],
    ]);
    const report = await conversation.reverse('undo');
    expect(report.files.map((f) => [f.path, f.outcome])).toEqual([
      ['src/lib/new.ts', 'restored'],
      ['src/lib', 'restored'],
      ['src', 'restored'],
    ]);
    expect(await fs.readdir(fx.project)).toEqual([]);
    await conversation.close();
  });

  it('never clobbers later work: a file changed after the turn is skipped, left as it is, and shown with its diff', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, conversation, [
      { name: 'write_file', arguments: { path: 'a.txt', content: 'A\n', mode: 'overwrite' } },
      { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n', mode: 'overwrite' } },
      { name: 'write_file', arguments: { path: 'c.txt', content: 'C\n', mode: 'create' } },
    ]);
    await fs.writeFile(fx.file('b.txt'), 'B, and my own edit\n');
    await fs.writeFile(fx.file('c.txt'), 'C changed by me\n');
    const report = await conversation.reverse('undo');
    const byPath = Object.fromEntries(report.files.map((f) => [f.path, f]));
    expect(byPath['a.txt']).toEqual({ path: 'a.txt', outcome: 'restored' });
    expect(byPath['b.txt']).toMatchObject({ outcome: 'skipped', reason: 'it changed after the turn, so it was left as it is' });
    expect(byPath['b.txt'].diff).toContain('-B\n+B, and my own edit');
    expect(byPath['c.txt']).toMatchObject({ outcome: 'skipped' });
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('a\n');
    expect(await fs.readFile(fx.file('b.txt'), 'utf8')).toBe('B, and my own edit\n');
    expect(await fs.readFile(fx.file('c.txt'), 'utf8')).toBe('C changed by me\n');
    await conversation.close();
  });

  it('redo undoes the undo, and there is then nothing more to redo', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'old\n' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, conversation, [
      { name: 'write_file', arguments: { path: 'a.txt', content: 'new\n', mode: 'overwrite' } },
      { name: 'write_file', arguments: { path: 'made.txt', content: 'made\n', mode: 'create' } },
    ]);
    await conversation.reverse('undo');
    expect(await fs.readdir(fx.project)).toEqual(['a.txt']);
    const redo = await conversation.reverse('redo');
    expect(redo.files.map((f) => [f.path, f.outcome])).toEqual([
      ['a.txt', 'restored'],
      ['made.txt', 'restored'],
    ]);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('new\n');
    expect(await fs.readFile(fx.file('made.txt'), 'utf8')).toBe('made\n');
    await expect(conversation.reverse('redo')).rejects.toBeInstanceOf(NothingToReverseError);
    // And it can be undone again.
    await conversation.reverse('undo');
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('old\n');
    await conversation.close();
  });

  it('undoes one call only (Undo this change), and the last turn with changes by default', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, conversation, [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n', mode: 'overwrite' } }], 'first');
    await runTurn(fx, conversation, [
      { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n', mode: 'overwrite' } },
      { name: 'write_file', arguments: { path: 'a.txt', content: 'AA\n', mode: 'overwrite' } },
    ], 'second');
    expect((await conversation.changes()).map((t) => t.turn)).toEqual([2, 1]);
    // runTurn names calls by the request count when they were scripted: the second turn's first call wrote b.txt.
    await conversation.reverse('undo', { callId: 'c2_0' });
    expect(await fs.readFile(fx.file('b.txt'), 'utf8')).toBe('b\n');
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('AA\n');
    await conversation.reverse('undo', { turn: 1 });
    // Turn 1's change to a.txt is not what a.txt holds now (turn 2 wrote it again): skipped, not clobbered.
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('AA\n');
    await conversation.close();
  });

  it('a crash during undo (between files) resumes without doing a file twice', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' } });
    const first = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, first, [
      { name: 'write_file', arguments: { path: 'a.txt', content: 'A\n', mode: 'overwrite' } },
      { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n', mode: 'overwrite' } },
      { name: 'write_file', arguments: { path: 'c.txt', content: 'C\n', mode: 'overwrite' } },
    ]);
    const id = first.id;
    await first.reverse('undo');
    await first.close();
    // The log as a crash leaves it (records are flushed in order, so a crash leaves a prefix): the undo
    // handled c.txt and recorded it, then restored b.txt and died before recording it; a.txt was not reached.
    const file = sessionFile(fx.home, id);
    const lines = (await fs.readFile(file, 'utf8')).trimEnd().split('\n');
    const steps = lines.filter((l) => l.includes('"reversal_step"'));
    const cut = lines.indexOf(steps[1]);
    await fs.writeFile(file, lines.slice(0, cut).join('\n') + '\n');
    await fs.writeFile(fx.file('a.txt'), 'A\n');
    // After the crash the person edits c.txt, which the undo had already restored.
    await fs.writeFile(fx.file('c.txt'), 'c, edited after the crash\n');

    const resumed = await Conversation.resume(fx.deps, id);
    expect((await resumed.changes())[0].files.map((f) => [f.path, f.state])).toEqual([
      ['a.txt', 'applied'],
      ['b.txt', 'applied'],
      ['c.txt', 'undone'],
    ]);
    const report = await resumed.reverse('undo');
    // The interrupted undo is finished first: b.txt (already restored) and a.txt; c.txt is not touched again.
    expect(report.resumed.map((f) => [f.path, f.outcome])).toEqual([
      ['b.txt', 'restored'],
      ['a.txt', 'restored'],
    ]);
    expect(report.files).toEqual([]);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('a\n');
    expect(await fs.readFile(fx.file('b.txt'), 'utf8')).toBe('b\n');
    expect(await fs.readFile(fx.file('c.txt'), 'utf8')).toBe('c, edited after the crash\n');
    const log = await fs.readFile(file, 'utf8');
    expect(log.match(/"reversal_end"/g)).toHaveLength(1);
    await resumed.close();
  });

  it('drops the oldest sessions first under the size cap, and their changes say they cannot be undone', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a'.repeat(4000), 'b.txt': 'b'.repeat(4000) } });
    const deps: ConversationDeps = { ...fx.deps, checkpointCapBytes: async () => 10_000 };
    const older = await Conversation.start(deps, fx.project);
    await runTurn(fx, older, [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x'.repeat(4000), mode: 'overwrite' } }]);
    // Make the older session's last write clearly older.
    const olderDir = path.join(checkpointsDir(fx.home), older.id);
    await fs.utimes(olderDir, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const newer = await Conversation.start(deps, fx.project);
    await runTurn(fx, newer, [{ name: 'write_file', arguments: { path: 'b.txt', content: 'y'.repeat(4000), mode: 'overwrite' } }]);

    expect(await fs.readdir(checkpointsDir(fx.home))).toEqual([newer.id]);
    const [turn] = await older.changes();
    expect(turn.files[0]).toMatchObject({ path: 'a.txt', notUndoable: DROPPED_NOTE, diff: null });
    const report = await older.reverse('undo');
    expect(report.files).toEqual([{ path: 'a.txt', outcome: 'skipped', reason: DROPPED_NOTE }]);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('x'.repeat(4000));
    // The newer session is intact.
    await newer.reverse('undo');
    expect(await fs.readFile(fx.file('b.txt'), 'utf8')).toBe('b'.repeat(4000));
    await older.close();
    await newer.close();
  });

  it('says that commands run outside the sandbox are not captured, and undo leaves what they did', async () => {
    fx = await makeAgentFixture({ settings: { bashSandbox: false } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, conversation, [
      { name: 'bash', arguments: { command: 'echo hi > by-bash.txt' } },
      { name: 'bash', arguments: { command: 'true' } },
      { name: 'write_file', arguments: { path: 'tracked.txt', content: 't\n', mode: 'create' } },
    ]);
    const [turn] = await conversation.changes();
    expect(turn.untrackedNote).toBe('This turn also ran 2 commands (bash or MCP) whose changes were not captured, so they cannot be undone.');
    await conversation.reverse('undo');
    expect((await fs.readdir(fx.project)).sort()).toEqual(['by-bash.txt']);
    await conversation.close();
  });
});
