import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src/main/core/sessions/records';
import { replayEvents } from '../../../src/main/core/sessions/replayEvents';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';

const at = '2025-01-01T00:00:00.000Z';
const header: SessionRecord = { type: 'session', version: 1, id: '0123456789abcdef0123456789abcdef', projectDir: '/p', createdAt: at };
/** Built-in tools as the service knows them. */
const display = new ToolRegistry(BUILTIN_TOOLS).display;
const call = (call_id: string) => ({ type: 'function_call' as const, call_id, name: 'bash', arguments: '{"command":"make"}' });

describe('replayEvents', () => {
  it('turns saved records into the events a window shows, calls without a decision', () => {
    const records: SessionRecord[] = [
      header,
      { type: 'user', text: 'Build it.', at },
      { type: 'response', responseId: 'r1', output: [{ type: 'message', role: 'assistant', text: 'Running make.' }, call('c1')], at },
      { type: 'tool_start', call_id: 'c1', name: 'bash', arguments: '{"command":"make"}', at },
      { type: 'tool_result', call_id: 'c1', name: 'bash', status: 'completed', output: 'ok', at },
      { type: 'response', responseId: 'r2', output: [{ type: 'message', role: 'assistant', text: 'Built.' }], at },
      { type: 'turn_end', status: 'completed', at },
    ];
    expect(replayEvents(records, display)).toEqual([
      { type: 'user_message', text: 'Build it.' },
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_text', text: 'Running make.' },
      { type: 'tool_call', callId: 'c1', name: 'bash', arguments: '{"command":"make"}', decision: null, mode: 'manual', tool: { kind: 'bash', foldsOutput: false } },
      { type: 'tool_result', callId: 'c1', name: 'bash', status: 'completed', output: 'ok' },
      { type: 'assistant_start', request: 2 },
      { type: 'assistant_text', text: 'Built.' },
      { type: 'turn_end', status: 'completed' },
    ]);
  });

  it('tells the window how to show each saved call: reads fold, MCP tools are known by name, an unknown name gets no display', () => {
    const fn = (call_id: string, name: string) => ({ type: 'function_call' as const, call_id, name, arguments: '{}' });
    const records: SessionRecord[] = [
      header,
      { type: 'user', text: 'Look.', at },
      { type: 'response', responseId: 'r1', output: [fn('a', 'read_file'), fn('b', 'list_dir'), fn('c', 'mcp_docs__search'), fn('d', 'no_such_tool')], at },
    ];
    const tools = replayEvents(records, display).flatMap((event) => (event.type === 'tool_call' ? [[event.name, event.tool]] : []));
    expect(tools).toEqual([
      ['read_file', { kind: 'restricted_read', foldsOutput: true }],
      ['list_dir', { kind: 'restricted_read', foldsOutput: true }],
      ['mcp_docs__search', { kind: 'mcp', foldsOutput: false }],
      ['no_such_tool', null],
    ]);
  });

  it('brings back what a person was shown and how they answered: approved calls started, denied ones never did', () => {
    const shown = { tool: 'bash', fields: [{ label: 'Command', value: 'make' }], warning: 'Runs with your account permissions.' };
    const records: SessionRecord[] = [
      header,
      { type: 'user', text: 'Three things.', at },
      { type: 'response', responseId: 'r1', output: [call('c1'), call('c2'), call('c3'), call('c4')], at },
      { type: 'confirmation', call_id: 'c1', name: 'bash', asked: true, mode: 'manual', confirmation: shown, at },
      { type: 'tool_start', call_id: 'c1', name: 'bash', arguments: '{"command":"make"}', at },
      { type: 'tool_result', call_id: 'c1', name: 'bash', status: 'completed', output: 'ok', at },
      { type: 'confirmation', call_id: 'c2', name: 'bash', asked: true, mode: 'manual', confirmation: shown, at },
      { type: 'tool_result', call_id: 'c2', name: 'bash', status: 'denied', output: 'The user denied this command.', at },
      { type: 'confirmation', call_id: 'c3', name: 'bash', asked: false, mode: 'bypass', confirmation: shown, at },
      { type: 'tool_start', call_id: 'c3', name: 'bash', arguments: '{"command":"make"}', at },
      { type: 'tool_result', call_id: 'c3', name: 'bash', status: 'completed', output: 'ok', at },
      // Asked when the process died: never answered.
      { type: 'confirmation', call_id: 'c4', name: 'bash', asked: true, mode: 'manual', confirmation: shown, at },
    ];
    const shownEvents = replayEvents(records, display).filter((event) => ['tool_confirmation', 'approval', 'tool_result'].includes(event.type));
    expect(shownEvents).toEqual([
      { type: 'tool_confirmation', callId: 'c1', name: 'bash', confirmation: shown, asked: true, mode: 'manual' },
      { type: 'approval', callId: 'c1', approved: true },
      { type: 'tool_result', callId: 'c1', name: 'bash', status: 'completed', output: 'ok' },
      { type: 'tool_confirmation', callId: 'c2', name: 'bash', confirmation: shown, asked: true, mode: 'manual' },
      { type: 'approval', callId: 'c2', approved: false },
      { type: 'tool_result', callId: 'c2', name: 'bash', status: 'denied', output: 'The user denied this command.' },
      { type: 'tool_confirmation', callId: 'c3', name: 'bash', confirmation: shown, asked: false, mode: 'bypass' },
      { type: 'tool_result', callId: 'c3', name: 'bash', status: 'completed', output: 'ok' },
      { type: 'tool_confirmation', callId: 'c4', name: 'bash', confirmation: shown, asked: true, mode: 'manual' },
      expect.objectContaining({ type: 'tool_result', callId: 'c4' }),
    ]);
  });

  it('shows a started call without a result as unknown and an unstarted one as not run', () => {
    const records: SessionRecord[] = [
      header,
      { type: 'user', text: 'Two things.', at },
      { type: 'response', responseId: 'r1', output: [call('c1'), call('c2')], at },
      { type: 'tool_start', call_id: 'c1', name: 'bash', arguments: '{"command":"make"}', at },
    ];
    const results = replayEvents(records, display).filter((event) => event.type === 'tool_result');
    expect(results).toEqual([
      expect.objectContaining({ callId: 'c1', status: 'unknown' }),
      expect.objectContaining({ callId: 'c2', status: 'error', output: expect.stringContaining('Not run') }),
    ]);
  });

  it('shows only what follows the last clear', () => {
    const records: SessionRecord[] = [
      header,
      { type: 'user', text: 'Old question.', at },
      { type: 'turn_end', status: 'completed', at },
      { type: 'clear', at },
      { type: 'user', text: 'New question.', at },
    ];
    expect(replayEvents(records, display)).toEqual([{ type: 'user_message', text: 'New question.' }]);
  });
});
