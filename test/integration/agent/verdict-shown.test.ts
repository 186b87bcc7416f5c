// The loop shows a call that runs without asking exactly when the decision
// says so (Verdict.shown); it never works that out again from the tool's kind.
import { afterEach, describe, expect, it } from 'vitest';
import { PERMISSION_MODES } from '../../../src/shared/domain';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { runCallAsLoop } from '../../support/runCall';

const CALLS = [
  { name: 'read_file', arguments: { path: 'a.txt' } },
  { name: 'list_dir', arguments: { path: '.' } },
  { name: 'write_file', arguments: { path: 'b.txt', content: 'new\n', mode: 'create' } },
  { name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'two' } },
  { name: 'bash', arguments: { command: 'true' } },
];

describe('Verdict.shown in the loop', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it.each(PERMISSION_MODES)('in %s mode, each call is asked, shown as allowed, or silent as its verdict says', async (mode) => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'one\n' } });
    for (const call of CALLS) {
      const run = await runCallAsLoop(fx, call, { mode, approve: true });
      expect(run.verdict, call.name).not.toBeNull();
      const verdict = run.verdict!;
      expect(run.confirmation?.asked ?? null, `${call.name} in ${mode}`).toBe(verdict.decision === 'ask' ? true : verdict.shown ? false : null);
      expect(run.asks.length, call.name).toBe(verdict.decision === 'ask' ? 1 : 0);
      // Plan mode refuses what it does not run; every other call completes.
      expect(run.result.status, call.name).toBe(verdict.decision === 'deny' ? 'denied' : 'completed');
    }
  });
});
