import { describe, expect, it } from 'vitest';
import { LIMIT_MESSAGES, TURN_LIMITS } from '../../../src/main/core/policy/limits';

describe('turn limits', () => {
  it('allows 8 model requests and 16 tool calls per turn', () => {
    expect(TURN_LIMITS).toEqual({ modelRequests: 8, toolCalls: 16 });
  });

  it('tells the person what happened and how to continue', () => {
    expect(LIMIT_MESSAGES.modelRequests).toMatch(/stopped after 8 model requests/);
    expect(LIMIT_MESSAGES.toolCalls).toMatch(/stopped after 16 tool calls/);
    for (const message of [LIMIT_MESSAGES.modelRequests, LIMIT_MESSAGES.toolCalls]) expect(message).toMatch(/send a message/);
  });
});
