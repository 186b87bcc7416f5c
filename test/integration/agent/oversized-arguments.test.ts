// One tool call with megabytes of arguments: refused, and kept only as a note
// of its size, so the session log and every later request stay small, also
// after the session is loaded again from its log.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { MAX_CALL_ARGUMENT_BYTES } from '../../../src/main/core/agent/toolCall';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { eventRecorder, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const MiB = 1024 * 1024;
/** Far below the 2 MiB sent: what a request or a log may weigh once the call is kept as a note. */
const SMALL = 64 * 1024;

interface InputItem {
  type: string;
  call_id?: string;
  arguments?: string;
}

describe('a tool call whose arguments are over the cap', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('is refused with invalid_arguments, and neither later requests nor the session log carry its arguments', async () => {
    fx = await makeAgentFixture();
    const content = 'x'.repeat(2 * MiB);
    fx.server.enqueue(
      { calls: [{ name: 'write_file', arguments: { path: 'big.txt', content, mode: 'create' }, call_id: 'big' }] },
      { text: 'It was too large; I will split it.' },
      { text: 'Still here.' },
      { text: 'And after loading.' },
    );
    const approver = recordingApprover(() => true);
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('Write big.txt', { mode: 'manual', approver, onEvent: recorder.onEvent });
    await conversation.ask('Anything else?', { mode: 'manual', approver });
    const id = conversation.id;
    await conversation.close();
    const resumed = await Conversation.resume(fx.deps, id);
    await resumed.ask('And now?', { mode: 'manual', approver });
    await resumed.close();

    // Refused before anything was asked or written, with a way forward.
    const [result] = recorder.of('tool_result');
    expect(result).toMatchObject({ callId: 'big', status: 'invalid_arguments' });
    expect(result!.output).toContain('over the 1 MiB (1,048,576 bytes) one tool call may carry');
    expect(result!.output).toMatch(/split a large new file into several smaller files \(write_file takes at most 256 KiB of content\)/);
    expect(approver.asks).toEqual([]);
    await expect(fs.stat(fx.file('big.txt'))).rejects.toThrow(/ENOENT/);
    // The front end is shown the note, not the arguments.
    expect(recorder.of('tool_call')[0]!.arguments.length).toBeLessThan(1024);

    expect(fx.server.requests).toHaveLength(4);
    for (const request of fx.server.requests.slice(1)) {
      expect(request.raw.length).toBeLessThan(SMALL);
      const call = (request.body.input as InputItem[]).find((item) => item.type === 'function_call' && item.call_id === 'big');
      expect(JSON.parse(call!.arguments!)).toEqual({
        omitted: expect.stringMatching(/^2,097,\d{3} bytes of arguments, over the 1 MiB one tool call may carry: not kept, and the call was not run\.$/),
      });
      expect(outputsIn(request.body).find((output) => output.call_id === 'big')?.status).toBe('invalid_arguments');
    }
    const log = await fs.stat(sessionFile(fx.home, id));
    expect(log.size).toBeLessThan(SMALL);
  });

  it('runs a call just under the cap as any other', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'alpha\n' } });
    // Whitespace keeps the JSON valid (read_file refuses unknown fields) while it brings the call near the cap.
    const padding = ' '.repeat(MAX_CALL_ARGUMENT_BYTES - 64);
    fx.server.enqueue({ calls: [{ name: 'read_file', arguments: `{"path":"a.txt"${padding}}`, call_id: 'near' }] }, { text: 'Read it.' });
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('Read a.txt', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();
    expect(recorder.of('tool_result')[0]).toMatchObject({ callId: 'near', status: 'completed' });
  });
});
