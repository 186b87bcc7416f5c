// A session's model history and what it costs: the budget that counts it,
// the figure the context meter shows, compaction between turns (asked for, or
// a summary the person rewrote), clear, and rebuilding the history from the
// log. A turn appends to the same history in place (runTurn.ts) and compacts
// it there when it must; the caller keeps the session busy meanwhile.
import type { CompactionEvent, ContextUse } from '../../../shared/sessions';
import { ContextBudget } from '../context/budget';
import { compact, replaceWithSummary, type CompactOutcome, type HistoryPositions } from '../context/compact';
import { tokenCounterFor, turnCounterFor, type TokenCounter } from '../context/tokens';
import type { HistoryItem, ModelClient } from '../model/types';
import type { LoadedSession } from '../sessions/load';
import type { SessionLog } from '../sessions/sessionLog';
import type { TurnSettings } from './conversationDeps';
import { CompactionError } from './conversationErrors';
import type { TurnEvent } from './events';
import type { RequestParts, TurnBudget } from './turnBudget';

/** Where the context's counts and compactions get what they need; read per use, so settings changed meanwhile apply. */
export interface ContextSources {
  log: SessionLog;
  turnSettings: () => Promise<TurnSettings>;
  model: () => Promise<ModelClient>;
  /** What every request carries besides the history. */
  fixedParts: () => Promise<RequestParts>;
  /** Identifies the session's requests to the service's prompt cache. */
  cacheKey: string;
}

export class ConversationContext {
  /** The context in use after the last turn or compaction, for the meter; null until counted. */
  private lastUse: ContextUse | null = null;
  /** The model has sent reasoning in this session: `reasoning: auto` keeps asking for it. */
  private sawReasoning: boolean;

  constructor(
    private readonly sources: ContextSources,
    private items: HistoryItem[],
    /** Where the person's messages and summaries are in the log, for compaction's cut. */
    private readonly positions: HistoryPositions = new WeakMap(),
    private readonly budget: ContextBudget = new ContextBudget(),
  ) {
    this.sawReasoning = items.some((item) => item.type === 'reasoning');
  }

  /** The model input so far: the array a turn appends to. */
  get history(): HistoryItem[] {
    return this.items;
  }

  /** The context in use now and the window, as last counted (after a turn, a compaction or `count`). */
  get use(): ContextUse | null {
    return this.lastUse;
  }

  /** The summary in force, if the history starts with one. */
  get summary(): { text: string; author: 'model' | 'person' } | null {
    const first = this.items[0];
    return first?.type === 'summary' ? { text: first.text, author: first.author } : null;
  }

  /** Whether to go on asking for reasoning under `reasoning: auto`. */
  get reasoningSeen(): boolean {
    return this.sawReasoning || this.items.some((item) => item.type === 'reasoning');
  }

  /** Follows a turn's events: the context it ended with, and whether the model reasoned. */
  noteEvent(event: TurnEvent): void {
    if (event.type === 'turn_end' && event.context) this.lastUse = event.context;
    if (event.type === 'reasoning_text') this.sawReasoning = true;
  }

  /** The budget a turn counts with, for the settings it runs under; the tokenizer is loaded only when a decision needs it. */
  turnBudget(settings: TurnSettings): TurnBudget {
    return {
      budget: this.budget,
      ...turnCounterFor(settings.model),
      settings: { window: settings.contextWindow, compactAt: settings.compactAt },
      positions: this.positions,
    };
  }

  /** Counts the context in use now with the current settings (e.g. for a window that just opened the session). */
  async count(): Promise<ContextUse> {
    const settings = await this.sources.turnSettings();
    const counter = await tokenCounterFor(settings.model);
    const used = this.budget.used(counter, this.items, await this.sources.fixedParts());
    this.lastUse = { used, window: settings.contextWindow };
    return this.lastUse;
  }

  /**
   * Summarizes every whole turn that does not fit the kept share. Throws
   * CompactionError with a message for the person when it cannot be done;
   * nothing is changed then.
   */
  async compact(signal?: AbortSignal): Promise<CompactionEvent> {
    const { log, cacheKey } = this.sources;
    return this.change(async ({ settings, counter, tokensBefore }) =>
      compact({
        history: this.items,
        positions: this.positions,
        log,
        model: await this.sources.model(),
        counter,
        window: settings.contextWindow,
        trigger: 'manual',
        inTurn: false,
        tokensBefore,
        signal,
        cacheKey,
      }),
    );
  }

  /**
   * Saves the person's rewrite of the summary in force as a new compaction
   * record written by the person. The model reads it as context only; nothing
   * decides on it.
   */
  async editSummary(text: string): Promise<CompactionEvent> {
    const trimmed = text.trim();
    if (!trimmed) throw new CompactionError('The summary is empty. Write what the model should know about the earlier work, or keep the summary as it was.');
    if (!this.summary) throw new CompactionError('This session has no summary to edit: compact it first.');
    return this.change(({ settings, counter, tokensBefore }) =>
      replaceWithSummary(
        { history: this.items, positions: this.positions, log: this.sources.log, counter, window: settings.contextWindow, tokensBefore },
        { summary: trimmed, author: 'person', trigger: 'edit', keptFrom: 1 },
      ),
    );
  }

  /** `/clear`: saved, then the history is empty from here on. */
  async clear(): Promise<void> {
    await this.sources.log.append({ type: 'clear' });
    this.items = [];
    this.budget.reset();
    this.lastUse = this.lastUse ? { used: 0, window: this.lastUse.window } : null;
  }

  /** Takes the history of a fresh load of the log, the truth after something unexpected cut a turn short. */
  replaceWith(loaded: Pick<LoadedSession, 'history' | 'positions'>): void {
    this.items = [...loaded.history];
    // The reloaded items are new objects: their positions are the loader's, and the budget starts again.
    for (const item of loaded.history) {
      const position = loaded.positions.get(item);
      if (position !== undefined) this.positions.set(item, position);
    }
    this.budget.reset();
  }

  /**
   * A change of the context between turns (a compaction, an edited summary):
   * the budget and the figure shown are counted again from the new history
   * once it succeeded.
   */
  private async change(
    apply: (counted: { settings: TurnSettings; counter: TokenCounter; tokensBefore: number }) => Promise<CompactOutcome>,
  ): Promise<CompactionEvent> {
    const settings = await this.sources.turnSettings();
    const counter = await tokenCounterFor(settings.model);
    const fixed = await this.sources.fixedParts();
    const result = await apply({ settings, counter, tokensBefore: this.budget.used(counter, this.items, fixed) });
    if (!result.ok) throw new CompactionError(result.message);
    this.budget.reset();
    this.lastUse = { used: this.budget.used(counter, this.items, fixed), window: settings.contextWindow };
    return result.event;
  }
}
