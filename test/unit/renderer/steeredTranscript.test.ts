import { describe, expect, it } from 'vitest';
import { transcriptFrom } from '../../../src/renderer/src/features/transcript/transcriptModel';
import type { TurnEvent } from '../../../src/shared/sessions';

describe('a message sent to a running turn in the transcript', () => {
  it('is shown where the turn delivered it, inside that turn: after the result, before the next answer', () => {
    const events: TurnEvent[] = [
      { type: 'user_message', text: 'Run the build.' },
      { type: 'assistant_start', request: 1 },
      { type: 'tool_call', callId: 'c1', name: 'bash', arguments: '{"command":"make"}', decision: 'allow', mode: 'manual', tool: null },
      { type: 'tool_result', callId: 'c1', name: 'bash', status: 'completed', output: 'ok' },
      { type: 'steered_message', text: 'Then run the tests.' },
      { type: 'assistant_start', request: 2 },
      { type: 'assistant_text', text: 'Built; running the tests next.' },
      { type: 'turn_end', status: 'completed' },
    ];
    const items = transcriptFrom(events, 0).items;
    expect(items.map((item) => item.kind)).toEqual(['user', 'tool', 'steered', 'assistant']);
    expect(items[2]).toMatchObject({ kind: 'steered', text: 'Then run the tests.' });
  });
});
