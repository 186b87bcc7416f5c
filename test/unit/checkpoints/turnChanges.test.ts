// Which calls of a turn count as ones whose changes are not known, read from
// the records alone: bash calls whose capture was not complete, MCP calls,
// and any bash call of a log from before commands were captured.
import { describe, expect, it } from 'vitest';
import { sessionChanges } from '../../../src/main/core/checkpoints/turnChanges';
import type { SessionRecord } from '../../../src/main/core/sessions/records';

const at = '2026-01-01T00:00:00.000Z';
const untracked = (name: string) => name === 'bash' || name.startsWith('mcp__');

function call(callId: string, name: string, status: 'completed' | 'failed' | 'error' | null): SessionRecord[] {
  const start: SessionRecord = { type: 'tool_start', call_id: callId, name, arguments: '{}', at };
  return status === null ? [start] : [start, { type: 'tool_result', call_id: callId, name, status, output: '', at }];
}

function capture(callId: string, outcome: 'captured' | 'partial' | 'not_captured'): SessionRecord {
  return { type: 'capture', call_id: callId, outcome, at };
}

function untrackedIn(records: SessionRecord[]): number {
  const turns = sessionChanges([{ type: 'user', text: 'q', at }, ...records], untracked).turns;
  return turns.reduce((sum, turn) => sum + turn.untrackedCalls, 0);
}

describe('calls whose changes are not known', () => {
  it('are every bash call of a log from before commands were captured', () => {
    expect(untrackedIn([...call('a', 'bash', 'completed'), ...call('b', 'bash', 'completed')])).toBe(2);
  });

  it('are none of the bash calls after a capture record, which only the first command of a log saves when it was complete', () => {
    expect(untrackedIn([...call('a', 'bash', 'completed'), capture('a', 'captured'), ...call('b', 'bash', 'failed'), ...call('c', 'bash', 'completed')])).toBe(0);
  });

  it('are the bash calls whose capture was partial or impossible, whose outcome is unknown (a crash), or that failed as a tool', () => {
    const records = [
      ...call('a', 'bash', 'completed'),
      capture('a', 'captured'),
      ...call('partial', 'bash', 'completed'),
      capture('partial', 'partial'),
      ...call('outside', 'bash', 'completed'),
      capture('outside', 'not_captured'),
      ...call('crashed', 'bash', null),
      ...call('threw', 'bash', 'error'),
    ];
    expect(untrackedIn(records)).toBe(4);
  });

  it('are every MCP call, captured commands or not', () => {
    expect(untrackedIn([...call('a', 'bash', 'completed'), capture('a', 'captured'), ...call('m', 'mcp__server__tool', 'completed')])).toBe(1);
  });
});
