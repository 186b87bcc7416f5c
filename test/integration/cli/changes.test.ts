// `mino changes`, `mino undo` and `mino redo` as a person or script runs them:
// real child processes, a real temp home and project, the mock model service.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';



describe('mino changes / undo / redo', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('lists a turn\'s changes; undo leaves a file changed since alone and exits 1; redo restores and exits 0', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': 'const greeting = "hi"\n', 'keep.txt': 'mine\n' } });
    fx.server.enqueue(
      {
        calls: [
          { name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'e' },
          { name: 'write_file', arguments: { path: 'keep.txt', content: 'theirs\n', mode: 'overwrite' }, call_id: 'w' },
          { name: 'bash', arguments: { command: 'true', sandbox: false }, call_id: 'b' },
        ],
      },
      { text: 'Done.' },
    );
    const exec = await runCli(fx, ['exec', '--mode', 'bypass', '--approve', 'always', 'Greet with hello']);
    expect(exec.code).toBe(0);
    const sessionId = /Session: ([0-9a-f]{32})/.exec(exec.stdout)![1];

    const changes = await runCli(fx, ['changes', '--session', sessionId]);
    expect(changes.code).toBe(0);
    expect(changes.stdout).toContain('Turn 1: "Greet with hello"\n  edited greet.go (+1 -1)\n');
    expect(changes.stdout).toContain('+const greeting = "hello"');
    expect(changes.stdout).toContain('This turn also ran 1 command (bash or MCP) whose changes were not captured, so they cannot be undone.');
    const json = await runCli(fx, ['changes', '--session', sessionId, '--json']);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({ type: 'turn_changes', turn: 1, files: [{ path: 'greet.go', action: 'edited' }, { path: 'keep.txt', action: 'overwritten' }] });

    // The person changes keep.txt after the turn: undo leaves it alone and says so.
    await fs.writeFile(fx.file('keep.txt'), 'theirs, then mine again\n');
    const undo = await runCli(fx, ['undo', '--session', sessionId, '--json']);
    expect(undo.code).toBe(1);
    const report = JSON.parse(undo.stdout.trim());
    expect(report).toMatchObject({ type: 'reversal', action: 'undo', turn: 1 });
    expect(report.files.map((f: { path: string; outcome: string }) => [f.path, f.outcome])).toEqual([
      ['keep.txt', 'skipped'],
      ['greet.go', 'restored'],
    ]);
    expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toBe('const greeting = "hi"\n');
    expect(await fs.readFile(fx.file('keep.txt'), 'utf8')).toBe('theirs, then mine again\n');

    const redo = await runCli(fx, ['redo', '--session', sessionId]);
    expect(redo.code).toBe(0);
    expect(redo.stdout).toBe('Redo of turn 1:\n  restored greet.go\n');
    expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toBe('const greeting = "hello"\n');

    const nothing = await runCli(fx, ['redo', '--session', sessionId, '--turn', '1']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/Nothing to redo in turn 1/);
  }, 120_000);

  it('exits 2 without --session, with a bad turn, and for a session that does not exist', async () => {
    fx = await makeAgentFixture();
    expect((await runCli(fx, ['undo'])).code).toBe(2);
    expect((await runCli(fx, ['undo', '--session', '0'.repeat(32), '--turn', 'x'])).stderr).toMatch(/--turn takes a turn number/);
    const missing = await runCli(fx, ['changes', '--session', '0'.repeat(32)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no saved session/i);
  }, 60_000);
});
