// What a sandboxed command changed, listed and taken back by the built `mino`:
// `mino exec --mode auto --approve never` runs `echo hi > a.txt` in the
// sandbox without asking, `mino changes` lists a.txt, `mino undo` removes it
// and `mino redo` brings it back. Real child processes, the real bwrap, a temp
// home and project, the mock model service.
import * as fs from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { buildCli, type BuiltCli } from '../../support/builtCli';
import { runCli } from '../../support/cliChild';

const availability = await sandboxAvailability();
const describeSandbox = availability.available ? describe : describe.skip;
if (!availability.available) console.warn(`Built CLI capture tests skipped: ${availability.reason}`);

let cli: BuiltCli;
let fx: AgentFixture;

beforeAll(async () => {
  if (availability.available) cli = await buildCli();
}, 120_000);

afterAll(async () => cli?.remove());
afterEach(async () => fx?.cleanup());

const mino = (args: string[]) => runCli(fx, args, cli.entry);

describeSandbox('a sandboxed command\'s changes in the built mino', () => {
  it('are listed by mino changes, removed by mino undo and brought back by mino redo', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'echo hi > a.txt' }, call_id: 'b' }] }, { text: 'Made it.' });
    const exec = await mino(['exec', '--mode', 'auto', '--approve', 'never', 'Make a.txt']);
    expect(exec.code, exec.stderr).toBe(0);
    expect(exec.stdout).toContain('[Changes: captured for review and undo: a.txt (created).]');
    const sessionId = /Session: ([0-9a-f]{32})/.exec(exec.stdout)![1]!;

    const changes = await mino(['changes', '--session', sessionId]);
    expect(changes.code).toBe(0);
    expect(changes.stdout).toContain('Turn 1: "Make a.txt"\n  created a.txt (+1 -0)\n');
    expect(changes.stdout).toContain('+hi');
    expect(changes.stdout).not.toContain('not captured');

    const undo = await mino(['undo', '--session', sessionId]);
    expect(undo.code, undo.stdout).toBe(0);
    expect(undo.stdout).toContain('Undo of turn 1:\n  restored a.txt\n');
    await expect(fs.access(fx.file('a.txt'))).rejects.toThrow();

    const redo = await mino(['redo', '--session', sessionId]);
    expect(redo.code, redo.stdout).toBe(0);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('hi\n');
  });
});
