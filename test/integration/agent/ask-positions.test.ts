// Several calls of one response that each need approval: every ask says where
// it stands ("2 of 3"), counting only the calls that ask.
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

describe('asks of one response', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('number the calls that ask, skipping reads, refusals and invalid calls; a lone ask has no number', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    fx.server.enqueue(
      {
        calls: [
          { name: 'read_file', arguments: { path: 'a.txt' }, call_id: 'read' },
          { name: 'edit_file', arguments: { path: 'a.txt', old_string: 'a', new_string: 'A' }, call_id: 'first' },
          { name: 'read_file', arguments: { path: '.env' }, call_id: 'refused' },
          { name: 'edit_file', arguments: { path: 'b.txt' }, call_id: 'invalid' },
          { name: 'bash', arguments: { command: 'ls' }, call_id: 'second' },
          { name: 'write_file', arguments: { path: 'c.txt', content: 'c\n', mode: 'create' }, call_id: 'third' },
        ],
      },
      { calls: [{ name: 'edit_file', arguments: { path: 'b.txt', old_string: 'b', new_string: 'B' }, call_id: 'alone' }] },
      { text: 'Done.' },
    );
    const approver = recordingApprover(() => false);
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('Change things.', { mode: 'manual', approver });
    await conversation.close();
    expect(approver.asks.map((ask) => [ask.callId, ask.position])).toEqual([
      ['first', { index: 1, total: 3 }],
      ['second', { index: 2, total: 3 }],
      ['third', { index: 3, total: 3 }],
      ['alone', undefined],
    ]);
  });
});
