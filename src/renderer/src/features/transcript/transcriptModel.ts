// Folds the turn events of a session into the items a transcript shows. Pure:
// the time the events arrived is always passed in by the caller, never read
// here, so the same events at the same time fold to the same transcript, and
// live events and a resumed session's past events take the same path.
import type { Confirmation, Decision, PermissionMode, ToolDisplay, ToolStatus } from '../../../../shared/domain';
import { LIVE_OUTPUT_TAIL_CHARS, type Plan, type ProjectInstructionsView, type TurnEvent, type TurnUsage } from '../../../../shared/sessions';
type TurnEndStatus = Extract<TurnEvent, { type: 'turn_end' }>['status'];

export interface ToolCardItem {
  kind: 'tool';
  key: string;
  callId: string;
  name: string;
  arguments: string;
  /** How to show it, as main said; null for a tool the session does not have. */
  tool: ToolDisplay | null;
  /** Null when the call never reached the decision (invalid, unknown tool, replayed). */
  decision: Decision | null;
  mode: PermissionMode | null;
  confirmation: Confirmation | null;
  /** True: a person was asked. False: the mode let it run and it is shown as a record. */
  asked: boolean | null;
  approved: boolean | null;
  result: { status: ToolStatus; output: string } | null;
  /** When the call began to run (ms since the epoch, the window's clock); null while it waits for a person, or never ran. */
  runningSince: number | null;
  /** What the running command printed so far (its newest part); dropped once the result arrives. */
  live: LiveOutput | null;
}

/** The newest part of a running command's output, at most LIVE_OUTPUT_TAIL_CHARS. */
export interface LiveOutput {
  text: string;
  /** Characters printed before `text` that are no longer kept. */
  skipped: number;
}

/** A model request that failed before its answer and will be sent again. */
export interface RetryNote {
  message: string;
  attempt: number;
  attempts: number;
  delayMs: number;
  /** When it was announced (the window's clock). */
  at: number;
}

/** What the running turn is waiting for, shown as a transient line at the end of the transcript. */
export interface TurnProgress {
  /** Waiting for the model's first output since then (the window's clock); null when output is arriving or nothing runs. */
  waitingSince: number | null;
  retry: RetryNote | null;
}

export type TranscriptItem =
  | { kind: 'user'; key: string; text: string; images?: Extract<TurnEvent, { type: 'user_message' }>['images'] }
  /** A message the person sent to the running turn (Send now), where the turn delivered it: part of that turn. */
  | { kind: 'steered'; key: string; text: string }
  | { kind: 'assistant'; key: string; text: string; streaming: boolean }
  | ToolCardItem
  | { kind: 'notice'; key: string; message: string }
  /** The model's reasoning summary, shown collapsed as "Thinking". */
  | { kind: 'thinking'; key: string; text: string; streaming: boolean }
  /** A summary that replaced the earlier turns in what the model reads. */
  | { kind: 'summary'; key: string; text: string; author: 'model' | 'person'; tokensBefore: number; tokensAfter: number }
  /**
   * A completed turn shows only its usage; a turn that got no answer shows none. `attempts`: how many times the
   * last request was sent (its retries announced live; 1 for a turn read back from the log).
   */
  | { kind: 'turn_end'; key: string; status: TurnEndStatus; message: string | null; usage: TurnUsage | null; attempts: number };

export interface TranscriptState {
  items: TranscriptItem[];
  /** Index of the assistant message receiving deltas, if any. */
  streamingIndex: number | null;
  /** Keys must stay unique across the whole session view. */
  nextKey: number;
  /** Items before this index were summarized by a compaction: still shown, marked as summarized. */
  summarizedBefore: number;
  progress: TurnProgress;
  /** How the latest turn ended (its item's key is unique), so the composer can offer a failed message again. */
  lastEnd: { key: string; status: TurnEndStatus } | null;
  /** The model's plan as update_plan last recorded it in this window; null until it records one. */
  plan: Plan | null;
  /** The project's instructions as the model was last told them in this window; undefined until a turn says. */
  instructions?: ProjectInstructionsView | null;
  /** The attempt the running request is on, once a retry was announced; undefined at 1. */
  attempt?: number;
}

const NO_PROGRESS: TurnProgress = { waitingSince: null, retry: null };

export const EMPTY_TRANSCRIPT: TranscriptState = { items: [], streamingIndex: null, nextKey: 0, summarizedBefore: 0, progress: NO_PROGRESS, lastEnd: null, plan: null };

/** Applies events in order, as arrived at `now` (ms since the epoch); returns a new state and leaves the old one untouched. */
export function applyEvents(state: TranscriptState, events: readonly TurnEvent[], now: number): TranscriptState {
  if (events.length === 0) return state;
  const draft: TranscriptState = { ...state, items: state.items.slice() };
  for (const event of events) applyEvent(draft, event, now);
  return draft;
}

/** A transcript of `events` from the start, as if all arrived at `now`. */
export function transcriptFrom(events: readonly TurnEvent[], now: number): TranscriptState {
  return applyEvents(EMPTY_TRANSCRIPT, events, now);
}

/** A message was sent (or the session became busy): the wait for the model starts now, before any event. */
export function startWaiting(state: TranscriptState, now: number): TranscriptState {
  return state.progress.waitingSince === null ? { ...state, progress: { ...state.progress, waitingSince: now } } : state;
}

/** Nothing runs any more: no progress to show. */
export function clearProgress(state: TranscriptState): TranscriptState {
  return state.progress === NO_PROGRESS ? state : { ...state, progress: NO_PROGRESS };
}

/** Appends output to a live view, keeping its newest LIVE_OUTPUT_TAIL_CHARS. */
export function appendLive(live: LiveOutput | null, chunk: string, skipped = 0): LiveOutput {
  const text = (live?.text ?? '') + chunk;
  const excess = text.length - LIVE_OUTPUT_TAIL_CHARS;
  const before = (live?.skipped ?? 0) + skipped;
  return excess > 0 ? { text: text.slice(excess), skipped: before + excess } : { text, skipped: before };
}

function key(draft: TranscriptState, prefix: string): string {
  draft.nextKey += 1;
  return `${prefix}-${draft.nextKey}`;
}

function endStreaming(draft: TranscriptState): void {
  if (draft.streamingIndex === null) return;
  const item = draft.items[draft.streamingIndex];
  if (item?.kind === 'assistant') {
    if (item.text === '') draft.items.splice(draft.streamingIndex, 1);
    else draft.items[draft.streamingIndex] = { ...item, streaming: false };
  }
  draft.streamingIndex = null;
}

/**
 * The card still waiting for the result of `callId`. A card with a result is
 * closed: call ids come from the model and may be reused in a later turn.
 */
function findOpenToolIndex(draft: TranscriptState, callId: string): number {
  for (let i = draft.items.length - 1; i >= 0; i -= 1) {
    const item = draft.items[i];
    if (item?.kind === 'tool' && item.callId === callId && item.result === null) return i;
  }
  return -1;
}

/** A card for a call before anything is known of it. */
export function newToolCard(key: string, callId: string, name: string): ToolCardItem {
  return {
    kind: 'tool',
    key,
    callId,
    name,
    arguments: '',
    tool: null,
    decision: null,
    mode: null,
    confirmation: null,
    asked: null,
    approved: null,
    result: null,
    runningSince: null,
    live: null,
  };
}

function addTool(draft: TranscriptState, callId: string, name: string, change: Partial<ToolCardItem>): void {
  draft.items.push({ ...newToolCard(key(draft, 'tool'), callId, name), ...change });
}

/** Updates the open card of `callId`, creating one when the call was not announced (e.g. the result of a call never run). */
function updateTool(draft: TranscriptState, callId: string, name: string, change: Partial<ToolCardItem>): void {
  const index = findOpenToolIndex(draft, callId);
  if (index === -1) addTool(draft, callId, name, change);
  else draft.items[index] = { ...(draft.items[index] as ToolCardItem), ...change };
}

/** The model's output is arriving: nothing is waited for. */
function outputArrived(draft: TranscriptState): void {
  if (draft.progress !== NO_PROGRESS) draft.progress = NO_PROGRESS;
}

function waitFrom(draft: TranscriptState, now: number): void {
  if (draft.progress.waitingSince === null) draft.progress = { ...draft.progress, waitingSince: now };
}

function applyEvent(draft: TranscriptState, event: TurnEvent, now: number): void {
  applyProgress(draft, event, now);
  (FOLDS[event.type] as Fold<TurnEvent['type']>)(draft, event, now);
}

type Fold<K extends TurnEvent['type']> = (draft: TranscriptState, event: Extract<TurnEvent, { type: K }>, now: number) => void;

/** How each kind of event changes the items; a new kind of event needs its entry here. */
const FOLDS: { readonly [K in TurnEvent['type']]: Fold<K> } = {
  user_message: (draft, event) => {
    endStreaming(draft);
    draft.items.push({ kind: 'user', key: key(draft, 'user'), text: event.text, ...(event.images?.length ? { images: event.images } : {}) });
  },
  steered_message: (draft, event) => {
    endStreaming(draft);
    draft.items.push({ kind: 'steered', key: key(draft, 'steered'), text: event.text });
  },
  assistant_start: (draft) => endStreaming(draft),
  model_retry: () => {},
  // Shown by the window's plan checklist and instructions line (not in the transcript's items).
  plan: (draft, event) => {
    draft.plan = event.plan;
  },
  project_instructions: (draft, event) => {
    draft.instructions = event.instructions;
  },
  tool_output: (draft, event) => {
    const index = findOpenToolIndex(draft, event.callId);
    const card = draft.items[index];
    if (card?.kind === 'tool') draft.items[index] = { ...card, live: appendLive(card.live, event.chunk, event.skipped) };
  },
  assistant_delta: (draft, event) => {
    const current = draft.streamingIndex === null ? undefined : draft.items[draft.streamingIndex];
    if (current?.kind === 'assistant') {
      draft.items[draft.streamingIndex as number] = { ...current, text: current.text + event.delta };
    } else {
      draft.items.push({ kind: 'assistant', key: key(draft, 'assistant'), text: event.delta, streaming: true });
      draft.streamingIndex = draft.items.length - 1;
    }
  },
  assistant_text: (draft, event) => {
    // The saved text replaces what was streamed: it is what the model history holds.
    const current = draft.streamingIndex === null ? undefined : draft.items[draft.streamingIndex];
    if (current?.kind === 'assistant') {
      draft.items[draft.streamingIndex as number] = { ...current, text: event.text, streaming: false };
      draft.streamingIndex = null;
    } else {
      draft.items.push({ kind: 'assistant', key: key(draft, 'assistant'), text: event.text, streaming: false });
    }
  },
  tool_call: (draft, event, now) => {
    endStreaming(draft);
    // A call is always announced first, so it always starts its own card.
    addTool(draft, event.callId, event.name, {
      arguments: event.arguments,
      tool: event.tool,
      decision: event.decision,
      mode: event.mode,
      runningSince: event.decision === null || event.decision === 'deny' ? null : now,
    });
  },
  tool_confirmation: (draft, event) => {
    endStreaming(draft);
    // An ask waits for the person; the clock of the call starts again once it is approved.
    updateTool(draft, event.callId, event.name, { confirmation: event.confirmation, asked: event.asked, mode: event.mode, ...(event.asked ? { runningSince: null } : {}) });
  },
  approval: (draft, event, now) => updateTool(draft, event.callId, '', { approved: event.approved, runningSince: event.approved ? now : null }),
  tool_result: (draft, event) => {
    endStreaming(draft);
    updateTool(draft, event.callId, event.name, { result: { status: event.status, output: event.output }, live: null });
  },
  notice: (draft, event) => {
    draft.items.push({ kind: 'notice', key: key(draft, 'notice'), message: event.message });
  },
  reasoning_delta: (draft, event) => {
    const index = openThinkingIndex(draft);
    const current = draft.items[index];
    if (current?.kind === 'thinking') draft.items[index] = { ...current, text: current.text + event.delta };
    else draft.items.push({ kind: 'thinking', key: key(draft, 'thinking'), text: event.delta, streaming: true });
  },
  reasoning_text: (draft, event) => {
    // The saved summary replaces what was streamed, as for assistant text.
    const index = openThinkingIndex(draft);
    const current = draft.items[index];
    if (current?.kind === 'thinking') draft.items[index] = { ...current, text: event.text, streaming: false };
    else draft.items.push({ kind: 'thinking', key: key(draft, 'thinking'), text: event.text, streaming: false });
  },
  compaction: (draft, event) => {
    endStreaming(draft);
    draft.summarizedBefore = Math.max(draft.summarizedBefore, firstKeptIndex(draft.items, event.keptTurns));
    draft.items.push({ kind: 'summary', key: key(draft, 'summary'), text: event.summary, author: event.author, tokensBefore: event.tokensBefore, tokensAfter: event.tokensAfter });
  },
  turn_end: (draft, event) => {
    endStreaming(draft);
    closeThinking(draft);
    // A completed turn shows only its usage; anything else says why it ended.
    const endKey = key(draft, 'end');
    draft.lastEnd = { key: endKey, status: event.status };
    const usage = answered(event.usage) ? event.usage : null;
    if (event.status !== 'completed' || usage) {
      draft.items.push({ kind: 'turn_end', key: endKey, status: event.status, message: event.message ?? null, usage, attempts: draft.attempt ?? 1 });
    }
    draft.attempt = undefined;
  },
};

/** What the turn waits for: the model from a message or request on, until its first output; nothing after the end. */
function applyProgress(draft: TranscriptState, event: TurnEvent, now: number): void {
  switch (event.type) {
    case 'user_message':
    case 'assistant_start':
      // A new request starts counting its attempts again.
      draft.attempt = undefined;
      waitFrom(draft, now);
      return;
    case 'model_retry':
      draft.attempt = event.attempt;
      waitFrom(draft, now);
      draft.progress = { ...draft.progress, retry: { message: event.message, attempt: event.attempt, attempts: event.attempts, delayMs: event.delayMs, at: now } };
      return;
    case 'assistant_delta':
    case 'assistant_text':
    case 'reasoning_delta':
    case 'reasoning_text':
    case 'tool_call':
    case 'compaction':
    case 'turn_end':
      outputArrived(draft);
      return;
    default:
      return;
  }
}

/** Usage that counts an answer: a turn whose every request failed reports only zeros, which say nothing. */
function answered(usage: TurnUsage | undefined): usage is TurnUsage {
  return usage !== undefined && usage.inputTokens + usage.outputTokens > 0;
}

function openThinkingIndex(draft: TranscriptState): number {
  const index = draft.items.findLastIndex((item) => item.kind === 'thinking');
  const item = draft.items[index];
  return item?.kind === 'thinking' && item.streaming ? index : -1;
}

/** A stopped turn leaves no reasoning streaming. */
function closeThinking(draft: TranscriptState): void {
  const index = openThinkingIndex(draft);
  const item = draft.items[index];
  if (item?.kind === 'thinking') draft.items[index] = { ...item, streaming: false };
}

/** The index of the first item a compaction kept: where the last `keptTurns` of the person's messages start. */
function firstKeptIndex(items: readonly TranscriptItem[], keptTurns: number): number {
  const starts = items.flatMap((item, index) => (item.kind === 'user' ? [index] : []));
  if (keptTurns === 0) return items.length;
  return starts[starts.length - keptTurns] ?? 0;
}
