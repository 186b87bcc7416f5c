// The session this window shows: its view (id, mode, busy, unknown results)
// and its transcript, kept current by the service's events. Streamed events
// are batched per animation frame so a fast stream re-renders once a frame.
// The reducer is pure, as React requires: the hook reads the window's clock
// when it dispatches, and each action carries that time.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { SessionView, TurnEvent } from '../../../../shared/sessions';
import { api } from '../../lib/api';
import { createFrameBatcher, type FrameBatcher } from '../../lib/frameBatcher';
import { applyEvents, clearProgress, EMPTY_TRANSCRIPT, startWaiting, transcriptFrom, type TranscriptState } from '../transcript/transcriptModel';

/** A turn began at `now` (the wait for the model starts before its first event) or nothing runs any more. */
function withBusy(transcript: TranscriptState, wasBusy: boolean, busy: boolean, now: number): TranscriptState {
  if (busy && !wasBusy) return startWaiting(transcript, now);
  if (!busy) return clearProgress(transcript);
  return transcript;
}

export interface SessionWindowState {
  view: SessionView | null;
  transcript: TranscriptState;
}

/** `now`: when the window learned it (ms since the epoch, the window's clock). */
export type SessionWindowAction =
  | { type: 'adopt'; view: SessionView | null; now: number }
  | { type: 'changed'; view: SessionView; now: number }
  | { type: 'events'; events: TurnEvent[]; now: number }
  | { type: 'patch'; patch: Partial<Pick<SessionView, 'busy' | 'mode'>>; now: number };

/** What an action does to the window's state: pure, so React may call it twice for one action. */
export function sessionWindowReducer(state: SessionWindowState, action: SessionWindowAction): SessionWindowState {
  switch (action.type) {
    case 'adopt':
      return { view: action.view, transcript: action.view ? transcriptFrom(action.view.past ?? [], action.now) : EMPTY_TRANSCRIPT };
    case 'changed':
      // Only the same session's state changes here: a change never carries the past a new transcript needs.
      if (!state.view || state.view.id !== action.view.id) return state;
      // Nor the meter and summary, which the turn's events keep current.
      return {
        transcript: withBusy(state.transcript, state.view.busy, action.view.busy, action.now),
        view: { ...action.view, context: action.view.context ?? state.view.context, summary: action.view.summary ?? state.view.summary },
      };
    case 'events': {
      const transcript = applyEvents(state.transcript, action.events, action.now);
      // A live question means a turn runs until its end arrives, even before the service's change event does.
      if (!state.view) return { ...state, transcript };
      let { busy, context } = state.view;
      for (const event of action.events) {
        if (event.type === 'user_message') busy = true;
        else if (event.type === 'turn_end') {
          busy = false;
          context = event.context ?? context;
        } else if (event.type === 'compaction' && context) context = { ...context, used: event.tokensAfter };
      }
      const view = state.view.busy !== busy || state.view.context !== context ? { ...state.view, busy, context } : state.view;
      return { view, transcript };
    }
    case 'patch': {
      if (!state.view) return state;
      const view = { ...state.view, ...action.patch };
      return { transcript: withBusy(state.transcript, state.view.busy, view.busy, action.now), view };
    }
  }
}

export interface SessionWindow {
  view: SessionView | null;
  transcript: TranscriptState;
  /** Shows `view` from its saved past (a session opened, created or cleared here). */
  adopt(view: SessionView | null): void;
  /** Applies what this window learned from its own request before the service's change event arrives. */
  patch(patch: Partial<Pick<SessionView, 'busy' | 'mode'>>): void;
}

export function useSessionWindow(): SessionWindow {
  const [state, dispatch] = useReducer(sessionWindowReducer, { view: null, transcript: EMPTY_TRANSCRIPT });
  const sessionId = useRef<string | null>(null);
  const batcher = useRef<FrameBatcher<TurnEvent> | null>(null);
  sessionId.current = state.view?.id ?? null;

  const adopt = useCallback((view: SessionView | null) => {
    // Events still queued describe what the new view's past already holds, or another session.
    batcher.current?.discard();
    sessionId.current = view?.id ?? null;
    dispatch({ type: 'adopt', view, now: Date.now() });
  }, []);

  useEffect(() => {
    const events = createFrameBatcher<TurnEvent>((batch) => dispatch({ type: 'events', events: batch, now: Date.now() }));
    batcher.current = events;
    const stopEvents = api.onSessionEvent((message) => {
      // A stray event of a session this window has left is not this transcript's.
      if (message.sessionId === sessionId.current) events.push(message.event);
    });
    const stopChanged = api.onSessionChanged((view) => {
      // Events queued before the change belong before it.
      events.flush();
      if (view.id === sessionId.current) {
        dispatch({ type: 'changed', view, now: Date.now() });
        return;
      }
      // Another session is now this window's: fetch it whole (with its past) and start its transcript afresh.
      void api.getCurrentSession().then(
        (current) => {
          if (current?.id === view.id) adopt(current);
        },
        () => undefined,
      );
    });
    return () => {
      stopEvents();
      stopChanged();
      events.discard();
      batcher.current = null;
    };
  }, [adopt]);

  const patch = useCallback((change: Partial<Pick<SessionView, 'busy' | 'mode'>>) => dispatch({ type: 'patch', patch: change, now: Date.now() }), []);

  return { view: state.view, transcript: state.transcript, adopt, patch };
}
