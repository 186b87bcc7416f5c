import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Confirmation } from '../../../src/shared/domain';
import type { TurnEvent } from '../../../src/shared/sessions';
import { LIVE_OUTPUT_TAIL_CHARS } from '../../../src/shared/sessions';
import {
  appendLive,
  applyEvents,
  clearProgress,
  EMPTY_TRANSCRIPT,
  startWaiting,
  transcriptFrom,
  type ToolCardItem,
  type TranscriptItem,
  type TranscriptState,
} from '../../../src/renderer/src/features/transcript/transcriptModel';

const editConfirmation: Confirmation = {
  tool: 'edit_file',
  fields: [{ label: 'Path', value: 'greet.go' }],
  diff: '--- a/greet.go\n+++ b/greet.go\n@@ -1 +1 @@\n-"hi"\n+"hello"\n',
};

const editCall = (callId = 'call_edit'): TurnEvent => ({
  type: 'tool_call',
  callId,
  name: 'edit_file',
  arguments: '{"path":"greet.go"}',
  decision: 'ask',
  mode: 'manual',
  tool: { kind: 'file_write', foldsOutput: false },
});
const READ = { kind: 'restricted_read', foldsOutput: true } as const;

/** The time events are applied at, where a test does not care which (ms since the epoch). */
const AT = 1_000;

/** The items without their keys, which are only an identity for rendering. */
function shown(state: TranscriptState): Array<Record<string, unknown>> {
  return state.items.map((item) => {
    const { key: _key, ...rest } = item;
    return rest;
  });
}

function tools(state: TranscriptState): ToolCardItem[] {
  return state.items.filter((item): item is ToolCardItem => item.kind === 'tool');
}

/** A window clock (Date.now and performance.now) that moves by 1 ms on every read, far from any time a test passes. */
function movingClock(): void {
  let ms = 1_700_000_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => (ms += 1));
  vi.spyOn(performance, 'now').mockImplementation(() => (ms += 1));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('transcript from turn events', () => {
  it('shows a user message as a user item', () => {
    const state = transcriptFrom([{ type: 'user_message', text: 'Rename the greeting' }], AT);
    expect(shown(state)).toEqual([{ kind: 'user', text: 'Rename the greeting' }]);
  });

  it('accumulates streamed deltas into one assistant message that is still streaming', () => {
    const state = transcriptFrom([
      { type: 'user_message', text: 'hi' },
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'Hel' },
      { type: 'assistant_delta', delta: 'lo' },
      { type: 'assistant_delta', delta: ' there' },
    ], AT);
    expect(shown(state)).toEqual([
      { kind: 'user', text: 'hi' },
      { kind: 'assistant', text: 'Hello there', streaming: true },
    ]);
    expect(state.streamingIndex).toBe(1);
  });

  it('accumulates deltas that arrive in separate batches into the same message', () => {
    let state = transcriptFrom([{ type: 'assistant_start', request: 1 }, { type: 'assistant_delta', delta: 'one ' }], AT);
    state = applyEvents(state, [{ type: 'assistant_delta', delta: 'two ' }], AT);
    state = applyEvents(state, [{ type: 'assistant_delta', delta: 'three' }], AT);
    expect(shown(state)).toEqual([{ kind: 'assistant', text: 'one two three', streaming: true }]);
  });

  it('replaces the streamed text with the saved assistant_text and ends streaming', () => {
    const state = transcriptFrom([
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'Helo (garbled stream)' },
      { type: 'assistant_text', text: 'Hello' },
    ], AT);
    expect(shown(state)).toEqual([{ kind: 'assistant', text: 'Hello', streaming: false }]);
    expect(state.streamingIndex).toBeNull();
  });

  it('keeps the streamed message\'s key when assistant_text confirms it, so the row is not remounted', () => {
    const streaming = transcriptFrom([{ type: 'assistant_start', request: 1 }, { type: 'assistant_delta', delta: 'Hello' }], AT);
    const confirmed = applyEvents(streaming, [{ type: 'assistant_text', text: 'Hello' }], AT);
    expect(confirmed.items).toHaveLength(1);
    expect(confirmed.items[0]?.key).toBe(streaming.items[0]?.key);
  });

  it('adds assistant_text without deltas (a replayed response) as a finished message', () => {
    const state = transcriptFrom([
      { type: 'user_message', text: 'hi' },
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_text', text: 'Hello' },
    ], AT);
    expect(shown(state)).toEqual([
      { kind: 'user', text: 'hi' },
      { kind: 'assistant', text: 'Hello', streaming: false },
    ]);
  });

  it('shows each of several messages of one response as its own item', () => {
    // The stream carries both texts; the saved messages then say where one ends.
    const state = transcriptFrom([
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'First.' },
      { type: 'assistant_delta', delta: 'Second.' },
      { type: 'assistant_text', text: 'First.' },
      { type: 'assistant_text', text: 'Second.' },
    ], AT);
    expect(shown(state)).toEqual([
      { kind: 'assistant', text: 'First.', streaming: false },
      { kind: 'assistant', text: 'Second.', streaming: false },
    ]);
  });

  it('does not merge deltas of two consecutive model requests', () => {
    const state = transcriptFrom([
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'Looking at the file.' },
      { type: 'assistant_start', request: 2 },
      { type: 'assistant_delta', delta: 'Done.' },
    ], AT);
    expect(shown(state)).toEqual([
      { kind: 'assistant', text: 'Looking at the file.', streaming: false },
      { kind: 'assistant', text: 'Done.', streaming: true },
    ]);
  });

  it('ends a streaming message when a tool call arrives, and starts a new one for text after it', () => {
    const state = transcriptFrom([
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'Let me edit.' },
      editCall(),
      { type: 'assistant_delta', delta: 'After.' },
    ], AT);
    expect(state.items.map((item) => item.kind)).toEqual(['assistant', 'tool', 'assistant']);
    expect(state.items[0]).toMatchObject({ text: 'Let me edit.', streaming: false });
    expect(state.items[2]).toMatchObject({ text: 'After.', streaming: true });
  });

  it('drops a streamed message that never received any text', () => {
    const state = transcriptFrom([
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: '' },
      { type: 'turn_end', status: 'completed' },
    ], AT);
    expect(state.items).toEqual([]);
    expect(state.streamingIndex).toBeNull();
  });

  it('merges tool_call, an asked tool_confirmation, the approval and the tool_result into one card', () => {
    const state = transcriptFrom([
      editCall(),
      { type: 'tool_confirmation', callId: 'call_edit', name: 'edit_file', confirmation: editConfirmation, asked: true, mode: 'manual' },
      { type: 'approval', callId: 'call_edit', approved: true },
      { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'completed', output: 'Edited greet.go' },
    ], 1000);
    expect(shown(state)).toEqual([
      {
        kind: 'tool',
        tool: { kind: 'file_write', foldsOutput: false },
        callId: 'call_edit',
        name: 'edit_file',
        arguments: '{"path":"greet.go"}',
        decision: 'ask',
        mode: 'manual',
        confirmation: editConfirmation,
        asked: true,
        approved: true,
        result: { status: 'completed', output: 'Edited greet.go' },
        // Ran from the approval on; the live output went with the result.
        runningSince: 1000,
        live: null,
      },
    ]);
  });

  it('records a denial by the person on the card with the denied result', () => {
    const state = transcriptFrom([
      editCall(),
      { type: 'tool_confirmation', callId: 'call_edit', name: 'edit_file', confirmation: editConfirmation, asked: true, mode: 'manual' },
      { type: 'approval', callId: 'call_edit', approved: false },
      { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'denied', output: 'The person declined.' },
    ], AT);
    expect(tools(state)).toHaveLength(1);
    expect(tools(state)[0]).toMatchObject({ asked: true, approved: false, result: { status: 'denied' } });
  });

  it('shows an ask still waiting for its answer as a card without approval or result', () => {
    const state = transcriptFrom([
      editCall(),
      { type: 'tool_confirmation', callId: 'call_edit', name: 'edit_file', confirmation: editConfirmation, asked: true, mode: 'manual' },
    ], AT);
    expect(tools(state)[0]).toMatchObject({ asked: true, approved: null, result: null, confirmation: editConfirmation });
  });

  it('records a call the mode allowed without asking (asked false) with its mode and no approval', () => {
    const state = transcriptFrom([
      { ...editCall(), decision: 'allow', mode: 'accept-edits' } as TurnEvent,
      { type: 'tool_confirmation', callId: 'call_edit', name: 'edit_file', confirmation: editConfirmation, asked: false, mode: 'accept-edits' },
      { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'completed', output: 'ok' },
    ], AT);
    expect(shown(state)).toEqual([
      expect.objectContaining({
        kind: 'tool',
        decision: 'allow',
        mode: 'accept-edits',
        confirmation: editConfirmation,
        asked: false,
        approved: null,
        result: { status: 'completed', output: 'ok' },
      }),
    ]);
  });

  it('keeps what main says about showing a tool on its card, for tools the renderer has never heard of', () => {
    const state = transcriptFrom([
      { type: 'tool_call', callId: 'g', name: 'grep_project', arguments: '{}', decision: 'allow', mode: 'manual', tool: READ },
      { type: 'tool_call', callId: 'x', name: 'made_up', arguments: '{}', decision: null, mode: 'manual', tool: null },
    ], AT);
    expect(tools(state).map((card) => [card.name, card.tool])).toEqual([
      ['grep_project', READ],
      ['made_up', null],
    ]);
  });

  it('keeps a card for each of several calls, each result merged into its own call', () => {
    const state = transcriptFrom([
      { type: 'tool_call', callId: 'a', name: 'read_file', arguments: '{"path":"a"}', decision: 'allow', mode: 'manual', tool: READ },
      { type: 'tool_call', callId: 'b', name: 'read_file', arguments: '{"path":"b"}', decision: 'allow', mode: 'manual', tool: READ },
      { type: 'tool_result', callId: 'b', name: 'read_file', status: 'completed', output: 'B' },
      { type: 'tool_result', callId: 'a', name: 'read_file', status: 'failed', output: 'A' },
    ], AT);
    expect(tools(state).map((card) => [card.callId, card.result])).toEqual([
      ['a', { status: 'failed', output: 'A' }],
      ['b', { status: 'completed', output: 'B' }],
    ]);
  });

  it('shows replayed past calls with no decision, no confirmation and their saved result', () => {
    const state = transcriptFrom([
      { type: 'user_message', text: 'fix it' },
      { type: 'assistant_start', request: 1 },
      { type: 'tool_call', callId: 'call_1', name: 'edit_file', arguments: '{}', decision: null, mode: 'manual', tool: { kind: 'file_write', foldsOutput: false } },
      { type: 'tool_result', callId: 'call_1', name: 'edit_file', status: 'unknown', output: 'The outcome is unknown.' },
      { type: 'assistant_start', request: 2 },
      { type: 'assistant_text', text: 'Checked.' },
      { type: 'turn_end', status: 'completed' },
    ], AT);
    expect(shown(state)).toEqual([
      { kind: 'user', text: 'fix it' },
      {
        kind: 'tool',
        tool: { kind: 'file_write', foldsOutput: false },
        callId: 'call_1',
        name: 'edit_file',
        arguments: '{}',
        decision: null,
        mode: 'manual',
        confirmation: null,
        asked: null,
        approved: null,
        result: { status: 'unknown', output: 'The outcome is unknown.' },
        runningSince: null,
        live: null,
      },
      { kind: 'assistant', text: 'Checked.', streaming: false },
    ]);
  });

  it('makes a card for a result whose call was never announced', () => {
    const state = transcriptFrom([{ type: 'tool_result', callId: 'call_x', name: 'bash', status: 'error', output: 'Not run: the turn was stopped.' }], AT);
    expect(shown(state)).toEqual([
      {
        kind: 'tool',
        tool: null,
        callId: 'call_x',
        name: 'bash',
        arguments: '',
        decision: null,
        mode: null,
        confirmation: null,
        asked: null,
        approved: null,
        result: { status: 'error', output: 'Not run: the turn was stopped.' },
        runningSince: null,
        live: null,
      },
    ]);
  });

  it('gives a call id reused in a later turn its own card, leaving the earlier card as it was', () => {
    const first: TurnEvent[] = [
      { type: 'user_message', text: 'one' },
      { type: 'tool_call', callId: 'call_0', name: 'read_file', arguments: '{"path":"a"}', decision: 'allow', mode: 'manual', tool: READ },
      { type: 'tool_result', callId: 'call_0', name: 'read_file', status: 'completed', output: 'A' },
      { type: 'turn_end', status: 'completed' },
    ];
    const second: TurnEvent[] = [
      { type: 'user_message', text: 'two' },
      editCall('call_0'),
      { type: 'tool_confirmation', callId: 'call_0', name: 'edit_file', confirmation: editConfirmation, asked: true, mode: 'manual' },
    ];
    const state = transcriptFrom([...first, ...second], AT);
    expect(state.items.map((item) => item.kind)).toEqual(['user', 'tool', 'user', 'tool']);
    expect(state.items[1]).toMatchObject({ name: 'read_file', arguments: '{"path":"a"}', confirmation: null, result: { status: 'completed', output: 'A' } });
    expect(state.items[3]).toMatchObject({ name: 'edit_file', confirmation: editConfirmation, asked: true, result: null });
  });

  it('gives an unannounced result its own card when an earlier card with that call id already has a result', () => {
    const state = transcriptFrom([
      { type: 'tool_call', callId: 'call_0', name: 'read_file', arguments: '{}', decision: 'allow', mode: 'manual', tool: READ },
      { type: 'tool_result', callId: 'call_0', name: 'read_file', status: 'completed', output: 'A' },
      { type: 'tool_result', callId: 'call_0', name: 'bash', status: 'error', output: 'Not run.' },
    ], AT);
    expect(tools(state).map((card) => [card.name, card.result?.output])).toEqual([
      ['read_file', 'A'],
      ['bash', 'Not run.'],
    ]);
  });

  it('shows a notice as its own item', () => {
    const state = transcriptFrom([{ type: 'notice', message: 'The MCP server "docs" failed to start.' }], AT);
    expect(shown(state)).toEqual([{ kind: 'notice', message: 'The MCP server "docs" failed to start.' }]);
  });

  it('adds no item for a completed turn', () => {
    const state = transcriptFrom([{ type: 'user_message', text: 'hi' }, { type: 'turn_end', status: 'completed' }], AT);
    expect(shown(state)).toEqual([{ kind: 'user', text: 'hi' }]);
  });

  it.each(['failed', 'aborted', 'limit'] as const)('shows a %s turn end with its message', (status) => {
    const state = transcriptFrom([{ type: 'turn_end', status, message: `why ${status}` }], AT);
    expect(shown(state)).toEqual([{ kind: 'turn_end', status, message: `why ${status}`, usage: null, attempts: 1 }]);
  });

  it('shows a non-completed turn end without a message as message null', () => {
    const state = transcriptFrom([{ type: 'turn_end', status: 'aborted' }], AT);
    expect(shown(state)).toEqual([{ kind: 'turn_end', status: 'aborted', message: null, usage: null, attempts: 1 }]);
  });

  it('keeps the partial streamed text, no longer streaming, when a turn fails mid-stream', () => {
    const state = transcriptFrom([
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'Half a sen' },
      { type: 'turn_end', status: 'failed', message: 'The model service failed.' },
    ], AT);
    expect(shown(state)).toEqual([
      { kind: 'assistant', text: 'Half a sen', streaming: false },
      { kind: 'turn_end', status: 'failed', message: 'The model service failed.', usage: null, attempts: 1 },
    ]);
  });

  it('shows no usage for a turn that got no answer, and how many times its last request was sent', () => {
    const zero = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
    const state = transcriptFrom([
      { type: 'user_message', text: 'hi' },
      { type: 'assistant_start', request: 1 },
      { type: 'model_retry', message: 'retrying', attempt: 2, attempts: 4, delayMs: 500 },
      { type: 'model_retry', message: 'retrying', attempt: 4, attempts: 4, delayMs: 2000 },
      { type: 'turn_end', status: 'failed', message: 'The service had a problem.', usage: zero },
    ], AT);
    expect(shown(state).at(-1)).toEqual({ kind: 'turn_end', status: 'failed', message: 'The service had a problem.', usage: null, attempts: 4 });
  });

  it('counts the attempts of the request that failed, not of an earlier one that got through', () => {
    const state = transcriptFrom([
      { type: 'user_message', text: 'hi' },
      { type: 'assistant_start', request: 1 },
      { type: 'model_retry', message: 'retrying', attempt: 2, attempts: 4, delayMs: 500 },
      { type: 'assistant_start', request: 2 },
      { type: 'turn_end', status: 'failed', message: 'Broke off.' },
    ], AT);
    expect(shown(state).at(-1)).toMatchObject({ kind: 'turn_end', attempts: 1 });
  });

  it('ends a streaming message when the next user message arrives', () => {
    const state = transcriptFrom([
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'Hi' },
      { type: 'user_message', text: 'next' },
    ], AT);
    expect(state.items[0]).toMatchObject({ kind: 'assistant', streaming: false });
    expect(state.streamingIndex).toBeNull();
  });

  it('gives every item a key unique across batches', () => {
    const batches: TurnEvent[][] = [
      [{ type: 'user_message', text: 'a' }, { type: 'assistant_start', request: 1 }, { type: 'assistant_delta', delta: 'x' }],
      [{ type: 'assistant_text', text: 'x' }, editCall('c1'), { type: 'notice', message: 'n' }],
      [{ type: 'tool_result', callId: 'c1', name: 'edit_file', status: 'completed', output: '' }, { type: 'turn_end', status: 'limit' }],
      [{ type: 'user_message', text: 'b' }, { type: 'assistant_start', request: 1 }, { type: 'assistant_text', text: 'y' }],
    ];
    const state = batches.reduce((folded, batch) => applyEvents(folded, batch, AT), EMPTY_TRANSCRIPT);
    const keys = state.items.map((item: TranscriptItem) => item.key);
    expect(keys).toHaveLength(7);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('leaves the previous state untouched and returns it as is for no events', () => {
    const before = transcriptFrom([{ type: 'assistant_start', request: 1 }, { type: 'assistant_delta', delta: 'Hel' }, editCall()], AT);
    const snapshot = structuredClone(before);
    const after = applyEvents(before, [
      { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'completed', output: 'ok' },
      { type: 'assistant_delta', delta: 'more' },
    ], AT);
    expect(before).toEqual(snapshot);
    expect(after).not.toBe(before);
    expect(applyEvents(after, [], AT)).toBe(after);
    expect(EMPTY_TRANSCRIPT).toEqual({ items: [], streamingIndex: null, nextKey: 0, summarizedBefore: 0, progress: { waitingSince: null, retry: null }, lastEnd: null, plan: null });
  });

  it('folds the same events to the same transcript whether applied at once or one by one', () => {
    const events: TurnEvent[] = [
      { type: 'user_message', text: 'go' },
      { type: 'assistant_start', request: 1 },
      { type: 'assistant_delta', delta: 'Wor' },
      { type: 'assistant_delta', delta: 'king' },
      { type: 'assistant_text', text: 'Working' },
      editCall(),
      { type: 'tool_confirmation', callId: 'call_edit', name: 'edit_file', confirmation: editConfirmation, asked: true, mode: 'manual' },
      { type: 'approval', callId: 'call_edit', approved: true },
      { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'completed', output: 'ok' },
      { type: 'assistant_start', request: 2 },
      { type: 'assistant_delta', delta: 'Done' },
      { type: 'turn_end', status: 'completed' },
    ];
    // The window's clock moves by 1 ms on every read, as it may between batches: the fold must not read it.
    movingClock();
    const oneByOne = events.reduce((state, event) => applyEvents(state, [event], AT), EMPTY_TRANSCRIPT);
    expect(oneByOne).toEqual(transcriptFrom(events, AT));
  });

  it('stamps a call that starts running, a wait and a retry with exactly the time it is given, whatever the clock says', () => {
    movingClock();
    const asked = transcriptFrom([{ type: 'user_message', text: 'go' }, editCall()], 5_000);
    expect(asked.progress.waitingSince).toBeNull();
    const approved = applyEvents(asked, [{ type: 'approval', callId: 'call_edit', approved: true }], 7_000);
    expect(tools(approved)[0]?.runningSince).toBe(7_000);
    const retrying = applyEvents(approved, [
      { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'completed', output: 'ok' },
      { type: 'assistant_start', request: 2 },
      { type: 'model_retry', message: 'The model service answered 503.', attempt: 2, attempts: 3, delayMs: 1000 },
    ], 9_000);
    expect(retrying.progress).toEqual({ waitingSince: 9_000, retry: { message: 'The model service answered 503.', attempt: 2, attempts: 3, delayMs: 1000, at: 9_000 } });
  });

  it('streams reasoning into one Thinking item that the saved summary replaces, before the answer', () => {
    const state = transcriptFrom([
      { type: 'user_message', text: 'go' },
      { type: 'assistant_start', request: 1 },
      { type: 'reasoning_delta', delta: 'Look' },
      { type: 'reasoning_delta', delta: 'ing' },
    ], AT);
    expect(state.items.at(-1)).toMatchObject({ kind: 'thinking', text: 'Looking', streaming: true });
    const done = applyEvents(state, [{ type: 'reasoning_text', text: 'Looking at greet.go.' }, { type: 'assistant_text', text: 'Done.' }], AT);
    expect(done.items.map((item) => item.kind)).toEqual(['user', 'thinking', 'assistant']);
    expect(done.items[1]).toMatchObject({ text: 'Looking at greet.go.', streaming: false });
  });

  it('shows a completed turn by its usage only', () => {
    const usage = { inputTokens: 1200, cachedInputTokens: 800, outputTokens: 40, reasoningTokens: 16 };
    const state = transcriptFrom([{ type: 'user_message', text: 'go' }, { type: 'turn_end', status: 'completed', usage }], AT);
    expect(state.items.at(-1)).toMatchObject({ kind: 'turn_end', status: 'completed', usage });
  });

  it('adds a summary card and marks everything before the kept turns as summarized', () => {
    const compaction = (keptTurns: number, summary: string): TurnEvent => ({
      type: 'compaction', trigger: 'manual', author: 'model', tokensBefore: 9000, tokensAfter: 900, summary, summarized: { from: 0, to: 9 }, keptTurns,
    });
    const state = transcriptFrom([
      { type: 'user_message', text: 'one' },
      { type: 'assistant_text', text: 'a' },
      { type: 'user_message', text: 'two' },
      { type: 'assistant_text', text: 'b' },
      compaction(1, 'They asked one.'),
    ], AT);
    expect(state.summarizedBefore).toBe(2);
    expect(state.items.at(-1)).toMatchObject({ kind: 'summary', text: 'They asked one.', author: 'model' });
    const all = applyEvents(state, [compaction(0, 'They asked one and two.')], AT);
    expect(all.summarizedBefore).toBe(5);
  });

  it('waits for the model from the send until the first output, across a retry, and again from each request', () => {
    let state = startWaiting(EMPTY_TRANSCRIPT, 100);
    state = applyEvents(state, [{ type: 'user_message', text: 'go' }, { type: 'assistant_start', request: 1 }], 300);
    expect(state.progress).toEqual({ waitingSince: 100, retry: null });
    const retry = { type: 'model_retry', message: 'The model service answered 429 (rate limited); retrying in 4 s (attempt 2 of 4).', attempt: 2, attempts: 4, delayMs: 4000 } as const;
    state = applyEvents(state, [retry], 500);
    expect(state.progress).toEqual({ waitingSince: 100, retry: { message: retry.message, attempt: 2, attempts: 4, delayMs: 4000, at: 500 } });
    state = applyEvents(state, [{ type: 'assistant_delta', delta: 'Hi' }], 4600);
    expect(state.progress).toEqual({ waitingSince: null, retry: null });
    state = applyEvents(state, [editCall(), { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'completed', output: 'ok' }, { type: 'assistant_start', request: 2 }], 5000);
    expect(state.progress.waitingSince).toBe(5000);
    state = applyEvents(state, [{ type: 'turn_end', status: 'failed', message: 'The model service had a problem.' }], 6000);
    expect(state.progress).toEqual({ waitingSince: null, retry: null });
    expect(state.lastEnd).toEqual({ key: expect.any(String), status: 'failed' });
    expect(clearProgress(startWaiting(state, 7000)).progress.waitingSince).toBeNull();
  });

  it('starts a call\'s clock when it runs (on approval, not while asked), gathers its live output, and drops it for the result', () => {
    let state = transcriptFrom([{ type: 'tool_call', callId: 'b', name: 'bash', arguments: '{"command":"make"}', decision: 'ask', mode: 'manual', tool: { kind: 'bash', foldsOutput: false } }], 10);
    state = applyEvents(state, [{ type: 'tool_confirmation', callId: 'b', name: 'bash', confirmation: { tool: 'bash', fields: [] }, asked: true, mode: 'manual' }], 20);
    expect(tools(state)[0]).toMatchObject({ runningSince: null, live: null });
    state = applyEvents(state, [{ type: 'approval', callId: 'b', approved: true }, { type: 'tool_output', callId: 'b', chunk: 'step 1\n' }], 2000);
    state = applyEvents(state, [{ type: 'tool_output', callId: 'b', chunk: 'step 2\n' }, { type: 'tool_output', callId: 'other', chunk: 'not this card' }], 2500);
    expect(tools(state)[0]).toMatchObject({ runningSince: 2000, live: { text: 'step 1\nstep 2\n', skipped: 0 } });
    state = applyEvents(state, [{ type: 'tool_result', callId: 'b', name: 'bash', status: 'completed', output: 'step 1\nstep 2\nExit code: 0' }], 3000);
    expect(tools(state)[0]).toMatchObject({ live: null, result: { status: 'completed' } });
  });

  it('keeps only the newest part of live output, counting what it dropped', () => {
    const big = 'x'.repeat(LIVE_OUTPUT_TAIL_CHARS - 10);
    let live = appendLive(null, big);
    live = appendLive(live, '0123456789ABCDEFGHIJ', 7);
    expect(live.text).toHaveLength(LIVE_OUTPUT_TAIL_CHARS);
    expect(live.text.endsWith('0123456789ABCDEFGHIJ')).toBe(true);
    expect(live.skipped).toBe(7 + 10);
  });
});
