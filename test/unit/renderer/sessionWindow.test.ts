// The session window's reducer: pure, with the time of each change carried by
// the action, so the same actions give the same state however late they run.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionView } from '../../../src/shared/sessions';
import { EMPTY_TRANSCRIPT } from '../../../src/renderer/src/features/transcript/transcriptModel';
import { sessionWindowReducer, type SessionWindowAction, type SessionWindowState } from '../../../src/renderer/src/features/sessions/useSessionWindow';

const view: SessionView = {
  id: 'a'.repeat(32),
  projectDir: '/p',
  title: 'Untitled session',
  mode: 'manual',
  busy: false,
  unknownCalls: [],
  past: [],
  loadProblems: [],
};

function run(actions: SessionWindowAction[]): SessionWindowState {
  return actions.reduce(sessionWindowReducer, { view: null, transcript: EMPTY_TRANSCRIPT });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('session window reducer', () => {
  it('starts the wait for the model at the time the busy change was learned, not when the reducer runs', () => {
    vi.spyOn(Date, 'now').mockReturnValue(99_999);
    const state = run([
      { type: 'adopt', view, now: 1_000 },
      { type: 'patch', patch: { busy: true }, now: 2_000 },
    ]);
    expect(state.view?.busy).toBe(true);
    expect(state.transcript.progress.waitingSince).toBe(2_000);
  });

  it('stamps a call approved in a batch of events with the batch\'s time', () => {
    vi.spyOn(Date, 'now').mockReturnValue(99_999);
    const state = run([
      { type: 'adopt', view, now: 1_000 },
      {
        type: 'events',
        now: 3_000,
        events: [
          { type: 'user_message', text: 'go' },
          { type: 'tool_call', callId: 'c', name: 'bash', arguments: '{}', decision: 'ask', mode: 'manual', tool: { kind: 'bash', foldsOutput: false } },
          { type: 'approval', callId: 'c', approved: true },
        ],
      },
    ]);
    expect(state.view?.busy).toBe(true);
    expect(state.transcript.items.at(-1)).toMatchObject({ kind: 'tool', runningSince: 3_000 });
  });

  it('gives the same state for the same actions run twice, as React may do', () => {
    const actions: SessionWindowAction[] = [
      { type: 'adopt', view: { ...view, past: [{ type: 'user_message', text: 'before' }, { type: 'assistant_text', text: 'answer' }, { type: 'turn_end', status: 'completed' }] }, now: 1_000 },
      { type: 'changed', view: { ...view, busy: true, past: undefined }, now: 2_000 },
      { type: 'events', events: [{ type: 'assistant_start', request: 1 }, { type: 'model_retry', message: 'retrying', attempt: 2, attempts: 3, delayMs: 500 }], now: 2_500 },
    ];
    let ms = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => (ms += 7));
    const first = run(actions);
    expect(run(actions)).toEqual(first);
    expect(first.transcript.progress).toEqual({ waitingSince: 2_000, retry: { message: 'retrying', attempt: 2, attempts: 3, delayMs: 500, at: 2_500 } });
  });
});
