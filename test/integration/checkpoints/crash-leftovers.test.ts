// What a kill in the middle of an undo or redo leaves in the project: the
// temporary file of the write it was making. The reversal's first record
// names it before it exists, so the next undo or redo removes it before
// anything else, and nothing the log does not name is touched. The kill is a
// real SIGKILL, in a child process, the moment that file has been created.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { removeReversalLeftovers } from '../../../src/main/core/checkpoints/reverseChanges';
import { sessionChanges } from '../../../src/main/core/checkpoints/turnChanges';
import { isTemporaryName } from '../../../src/main/core/fs/atomicWrite';
import { loadSession } from '../../../src/main/core/sessions/load';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { tsxArgs } from '../../support/tsxChild';

const KILLED_REVERSAL = path.resolve(__dirname, '../../support/killedReversal.ts');

async function runTurn(fx: AgentFixture, conversation: Conversation, calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
  fx.server.enqueue({ calls: calls.map((c, i) => ({ ...c, call_id: `c${fx.server.requests.length}_${i}` })) }, { text: 'done' });
  expect((await conversation.ask('change things', { mode: 'bypass', approver: recordingApprover() })).status).toBe('completed');
}

/** Runs the reversal in a child that kills itself once its first temporary file exists; resolves with how it ended. */
async function killedReversal(fx: AgentFixture, id: string, action: 'undo' | 'redo'): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  const child = spawn(process.execPath, tsxArgs(KILLED_REVERSAL, fx.home, id, action), { env: fx.env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout })));
}

async function temporaryFiles(fx: AgentFixture): Promise<string[]> {
  const entries = await fs.readdir(fx.project, { recursive: true });
  return entries.filter((entry) => isTemporaryName(path.basename(entry))).sort();
}

describe('a reversal killed mid-write', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('undo: the temporary file it leaves is removed by the next undo, which then finishes the change', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    const first = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, first, [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n', mode: 'overwrite' } }]);
    const id = first.id;
    await first.close();

    const killed = await killedReversal(fx, id, 'undo');
    expect(killed).toMatchObject({ signal: 'SIGKILL', stdout: '' });
    // The kill came between the temporary file's creation and its rename: a.txt is as the turn left it.
    const [leftover] = await temporaryFiles(fx);
    expect(leftover).toMatch(/^\.a\.txt\.mino-[0-9a-f]{12}\.tmp$/);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('A\n');

    // Resuming the session removes it at once, before any undo is asked for.
    const resumed = await Conversation.resume(fx.deps, id);
    expect(await temporaryFiles(fx)).toEqual([]);
    const report = await resumed.reverse('undo');
    expect(report.resumed).toEqual([{ path: 'a.txt', outcome: 'restored' }]);
    expect(await temporaryFiles(fx)).toEqual([]);
    expect(await fs.readdir(fx.project)).toEqual(['a.txt']);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('a\n');
    await resumed.close();
  }, 60_000);

  it('redo of a created file in a folder: the same, through the create path', async () => {
    fx = await makeAgentFixture({ files: { 'src/kept.txt': 'kept\n' } });
    const first = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, first, [{ name: 'write_file', arguments: { path: 'src/made.txt', content: 'made\n', mode: 'create' } }]);
    await first.reverse('undo');
    const id = first.id;
    await first.close();
    expect(await fs.readdir(fx.file('src'))).toEqual(['kept.txt']);

    expect(await killedReversal(fx, id, 'redo')).toMatchObject({ signal: 'SIGKILL' });
    expect(await temporaryFiles(fx)).toEqual([expect.stringMatching(/^src\/\.made\.txt\.mino-[0-9a-f]{12}\.tmp$/)]);

    const resumed = await Conversation.resume(fx.deps, id);
    const report = await resumed.reverse('redo');
    expect(report.resumed).toEqual([{ path: 'src/made.txt', outcome: 'restored' }]);
    expect((await fs.readdir(fx.file('src'))).sort()).toEqual(['kept.txt', 'made.txt']);
    expect(await fs.readFile(fx.file('src/made.txt'), 'utf8')).toBe('made\n');
    await resumed.close();
  }, 60_000);

  it('what resuming calls removes that file, and only it: a temporary name the log does not give is left alone', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    const first = await Conversation.start(fx.deps, fx.project);
    await runTurn(fx, first, [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n', mode: 'overwrite' } }]);
    const id = first.id;
    await first.close();
    expect(await killedReversal(fx, id, 'undo')).toMatchObject({ signal: 'SIGKILL' });
    const [leftover] = await temporaryFiles(fx);
    // Another write's leftover (its call's tool start names it, not this reversal).
    const foreign = '.a.txt.mino-000000000000.tmp';
    await fs.writeFile(fx.file(foreign), 'someone else\n');

    const loaded = await loadSession(fx.home, id, () => ({ ok: true }));
    const changes = sessionChanges(loaded.records, () => false);
    expect(changes.open).not.toBeNull();
    expect(removeReversalLeftovers(fx.project, changes)).toEqual([leftover]);
    expect(await temporaryFiles(fx)).toEqual([foreign]);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('A\n');
    // Nothing else left to remove.
    expect(removeReversalLeftovers(fx.project, changes)).toEqual([]);
  }, 60_000);
});
