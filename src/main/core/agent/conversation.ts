// A session a person talks in: its log, its model history and its unknown
// results. The CLI and the desktop service both drive sessions through this
// class, so they share one set of rules. The permission mode is not here: it
// belongs to the front end's memory, never to the session.
import type { PermissionMode, SessionId } from '../../../shared/domain';
import type { CompactionEvent, ContextUse } from '../../../shared/sessions';
import { ContextBudget } from '../context/budget';
import { promptCacheKey } from '../context/cacheKey';
import { compact, replaceWithSummary, type CompactOutcome, type HistoryPositions } from '../context/compact';
import { tokenCounterFor, turnCounterFor, type TokenCounter } from '../context/tokens';
import { reasoningRequest, type ReasoningSetting } from '../model/reasoning';
import type { HistoryItem, ModelClient, ReasoningEffort } from '../model/types';
import { loadSession, parseSession, readSessionFile, type UnknownCall } from '../sessions/load';
import type { SessionRecord } from '../sessions/records';
import { removeLeftoverTemporaryFiles } from '../fs/leftoverTemporaryFiles';
import { endSurvivors } from '../tools/survivors';
import { SessionLog } from '../sessions/sessionLog';
import { lockSession, type SessionLock } from '../locks/sessionLock';
import type { TurnLimits } from '../policy/limits';
import type { AnyTool } from '../tools/types';
import { discoverSkills, type SkillSet } from '../skills/discoverSkills';
import { skillCatalogText } from '../skills/catalog';
import type { Approver } from './approver';
import type { TurnEventListener } from './events';
import { summarizeTurn, type TurnSummary } from '../checkpoints/changeSummary';
import { DEFAULT_CHECKPOINT_CAP_MB, preImageKeeper } from '../checkpoints/keepPreImages';
import { planReversal, reverseChanges, type ReversalAction, type ReversalReport } from '../checkpoints/reverseChanges';
import { sessionChanges, type SessionChanges } from '../checkpoints/turnChanges';
import { isMcpToolName } from '../mcp/toolName';
import { problemSubject } from '../mcp/problems';
import { composeInstructions } from './instructions';
import { systemPrompt } from './systemPrompt';
import { runTurn, type TurnOutcome } from './runTurn';
import { ToolRegistry } from './toolRegistry';
import { errorText, log as trail } from '../log/log';
import { checkedSessionTitle } from '../../../shared/sessionTitle';

export interface ConversationDeps {
  homeDir: string;
  /** Made per turn, so settings changed between turns apply. May throw a ModelError of kind `config`. */
  model: () => Promise<ModelClient>;
  /** What the person wrote for the model (SOUL.md), sent after Mino's generated part. */
  instructions: () => Promise<string>;
  /** Built-in tools; always available, also for checking a saved session. */
  builtinTools: readonly AnyTool[];
  /** Who opens sessions, as the session lock names it to a second opener: "desktop window", "CLI". */
  owner?: string;
  /** What the person should be told before a turn (that commands are not sandboxed, say); asked per turn. */
  notices?: () => Promise<string[]>;
  /** Tools from external servers, connected lazily; problems are told to the person. */
  externalTools?: (projectDir: string) => Promise<{ tools: AnyTool[]; problems: string[] }>;
  /** The size cap of ~/.mino/checkpoints in bytes (a setting); default 500 MB. */
  checkpointCapBytes?: () => Promise<number>;
  /** The model name, context window and reasoning settings; read per turn, so changes apply from the next one. */
  turnSettings: () => Promise<TurnSettings>;
}

export interface TurnSettings {
  /** As requests name it (the environment's MINO_MODEL wins). */
  model: string;
  contextWindow: number;
  /** Share of the window at which Mino compacts first (0.8 = 80%). */
  compactAt: number;
  reasoning: ReasoningSetting;
  reasoningEffort: ReasoningEffort | 'default';
}

export class CompactionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompactionError';
  }
}

export type { UnknownCall };

export class UnacknowledgedResultsError extends Error {
  constructor(readonly calls: UnknownCall[]) {
    super(
      `This session has ${calls.length === 1 ? 'a tool call' : `${calls.length} tool calls`} whose outcome is unknown ` +
        `(${calls.map((c) => `${c.name} ${c.call_id}`).join(', ')}): Mino stopped while ${calls.length === 1 ? 'it was' : 'they were'} running. ` +
        'Nothing was run again. Check the project, then acknowledge the unknown results before asking another question.',
    );
    this.name = 'UnacknowledgedResultsError';
  }
}

export class TurnInProgressError extends Error {
  constructor() {
    super('A turn is already running in this session. Wait for it to finish or stop it first.');
    this.name = 'TurnInProgressError';
  }
}

export interface AskOptions {
  /** A function is asked before each call (see TurnOptions.mode). */
  mode: PermissionMode | (() => PermissionMode);
  approver: Approver;
  onEvent?: TurnEventListener;
  signal?: AbortSignal;
  /** Overrides the per-turn limits (benchmarks); the defaults are the policy's. */
  limits?: TurnLimits;
}

export class Conversation {
  private running = false;
  private loadedRecords: readonly SessionRecord[] | null = null;
  /** Held from opening to close, so no other process appends to this session meanwhile. */
  private sessionLock: SessionLock | null = null;
  /** The model has sent reasoning in this session: `reasoning: auto` keeps asking for it. */
  private sawReasoning: boolean;
  /** The context in use after the last turn or compaction, for the meter; null until counted. */
  private lastContext: ContextUse | null = null;
  /** The title the person gave the session (its last title record); null until they rename it. */
  private namedTitle: string | null = null;
  /** What the last turn's MCP problems were about: one that stands is told once, one that cleared and came back again. */
  private standingProblems: ReadonlySet<string> = new Set();

  private constructor(
    private readonly deps: ConversationDeps,
    private readonly log: SessionLog,
    readonly projectDir: string,
    private history: HistoryItem[],
    private unknown: UnknownCall[],
    /** Problems found while loading (e.g. a truncated last line that was set aside). */
    readonly loadProblems: ReadonlyArray<{ line: number; message: string }>,
    /** Every call id in the log, so a model that repeats one cannot make the log ambiguous. */
    private readonly usedCallIds: Set<string>,
    /** Found when the session starts or is loaded, and again on reloadSkills; never from the log. */
    private skillSet: SkillSet,
    /** Where the person's messages and summaries are in the log, for compaction's cut. */
    private readonly positions: HistoryPositions = new WeakMap(),
    private readonly budget: ContextBudget = new ContextBudget(),
  ) {
    this.sawReasoning = history.some((item) => item.type === 'reasoning');
  }

  /** A new, empty session for a project. */
  static async start(deps: ConversationDeps, projectDir: string): Promise<Conversation> {
    const log = await SessionLog.create(deps.homeDir, projectDir);
    let lock: SessionLock | null = null;
    try {
      lock = lockSession(deps.homeDir, log.id, deps.owner ?? 'Mino');
      const conversation = new Conversation(deps, log, projectDir, [], [], [], new Set(), await discoverSkills(projectDir, deps.homeDir));
      conversation.sessionLock = lock;
      return conversation;
    } catch (error) {
      lock?.release();
      await log.close();
      throw error;
    }
  }

  /**
   * Loads a saved session from its last compaction on (the history before it
   * is the summary's, so it is not rebuilt). Runs only the pure validation of
   * recorded calls: nothing is inspected or re-run. The file is read once:
   * loading parses it first (a damaged log is refused before anything is
   * opened), then it is opened for append, which sets a broken last line aside.
   */
  static async resume(deps: ConversationDeps, id: SessionId): Promise<Conversation> {
    // Locked before the file is read, so what is read is what this writer continues from.
    const lock = lockSession(deps.homeDir, id, deps.owner ?? 'Mino');
    try {
      const conversation = await Conversation.openLocked(deps, id);
      conversation.sessionLock = lock;
      return conversation;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static async openLocked(deps: ConversationDeps, id: SessionId): Promise<Conversation> {
    const registry = new ToolRegistry(deps.builtinTools);
    const read = await readSessionFile(deps.homeDir, id);
    const loaded = await parseSession(id, read, registry.validateCall, { fromLastCompaction: true });
    const log = await SessionLog.openForAppend(deps.homeDir, id, read.content);
    // From here the log is open: whatever fails must close it.
    try {
      const setAside = log.setAside;
      const problems = setAside ? loaded.problems.map((problem) => (problem.line === setAside.line ? { line: setAside.line, message: setAside.message } : problem)) : loaded.problems;
      for (const problem of problems) trail.warn('session.load_problem', { session: id, line: problem.line, problem: problem.message });
      const skills = await discoverSkills(loaded.projectDir, deps.homeDir);
      const conversation = new Conversation(
        deps,
        log,
        loaded.projectDir,
        [...loaded.history],
        await withSurvivorsEnded(withLeftoversRemoved(loaded.projectDir, loaded.unknownCalls)),
        problems,
        loaded.usedCallIds,
        skills,
        loaded.positions,
        new ContextBudget(loaded.lastUsage),
      );
      // Records before a compaction were not read; a window showing the whole transcript reads the log itself then.
      conversation.loadedRecords = loaded.skippedRecords ? null : loaded.records;
      conversation.namedTitle = loaded.title;
      return conversation;
    } catch (error) {
      await log.close();
      throw error;
    }
  }

  /**
   * The records resume loaded, handed over once (a window showing the
   * session replays them instead of reading the log again), then dropped so
   * they are not kept for the session's lifetime.
   */
  takeLoadedRecords(): readonly SessionRecord[] | null {
    const records = this.loadedRecords;
    this.loadedRecords = null;
    return records;
  }

  get id(): SessionId {
    return this.log.id;
  }

  /** Identifies this session's requests to the service's prompt cache. */
  get cacheKey(): string {
    return promptCacheKey(this.id);
  }

  /** The context in use now and the window, as last counted (after a turn, a compaction or `countContext`). */
  get context(): ContextUse | null {
    return this.lastContext;
  }

  /** Counts the context in use now with the current settings (e.g. for a window that just opened the session). */
  async countContext(): Promise<ContextUse> {
    const settings = await this.deps.turnSettings();
    const counter = await tokenCounterFor(settings.model);
    const used = this.budget.used(counter, this.history, await this.fixedParts());
    this.lastContext = { used, window: settings.contextWindow };
    return this.lastContext;
  }

  /** What every request carries besides the history: the instructions and the built-in tools' specs. */
  private async fixedParts() {
    const builtin = [...this.deps.builtinTools];
    return {
      instructions: composeInstructions([systemPrompt(builtin), await this.deps.instructions(), skillCatalogText(this.skillSet.skills)]),
      tools: new ToolRegistry(builtin).specs(),
    };
  }

  /** The summary in force, if the history starts with one. */
  get summary(): { text: string; author: 'model' | 'person' } | null {
    const first = this.history[0];
    return first?.type === 'summary' ? { text: first.text, author: first.author } : null;
  }

  /**
   * The person asked to compact now (between turns): every whole turn that
   * does not fit the kept share is summarized. Throws CompactionError with a
   * message for the person when it cannot be done; nothing is changed then.
   */
  async compact(options: { signal?: AbortSignal } = {}): Promise<CompactionEvent> {
    if (this.running) throw new TurnInProgressError();
    if (this.unknown.length > 0) throw new UnacknowledgedResultsError(this.unknown);
    return this.changeContext(async ({ settings, counter, tokensBefore }) =>
      compact({
        history: this.history,
        positions: this.positions,
        log: this.log,
        model: await this.deps.model(),
        counter,
        window: settings.contextWindow,
        trigger: 'manual',
        inTurn: false,
        tokensBefore,
        signal: options.signal,
        cacheKey: this.cacheKey,
      }),
    );
  }

  /**
   * The person rewrote the summary in force: saved as a new compaction record
   * written by the person. The model reads it as context only; nothing
   * decides on it.
   */
  async editSummary(text: string): Promise<CompactionEvent> {
    if (this.running) throw new TurnInProgressError();
    const trimmed = text.trim();
    if (!trimmed) throw new CompactionError('The summary is empty. Write what the model should know about the earlier work, or keep the summary as it was.');
    if (!this.summary) throw new CompactionError('This session has no summary to edit: compact it first.');
    return this.changeContext(({ settings, counter, tokensBefore }) =>
      replaceWithSummary(
        { history: this.history, positions: this.positions, log: this.log, counter, window: settings.contextWindow, tokensBefore },
        { summary: trimmed, author: 'person', trigger: 'edit', keptFrom: 1 },
      ),
    );
  }

  /**
   * A change of the context between turns (a compaction, an edited summary):
   * the session is held busy meanwhile, and the budget and the figure shown
   * are counted again from the new history once it succeeded.
   */
  private async changeContext(
    change: (counted: { settings: TurnSettings; counter: TokenCounter; tokensBefore: number }) => Promise<CompactOutcome>,
  ): Promise<CompactionEvent> {
    this.running = true;
    try {
      const settings = await this.deps.turnSettings();
      const counter = await tokenCounterFor(settings.model);
      const fixed = await this.fixedParts();
      const result = await change({ settings, counter, tokensBefore: this.budget.used(counter, this.history, fixed) });
      if (!result.ok) throw new CompactionError(result.message);
      this.budget.reset();
      this.lastContext = { used: this.budget.used(counter, this.history, fixed), window: settings.contextWindow };
      return result.event;
    } finally {
      this.running = false;
    }
  }

  get busy(): boolean {
    return this.running;
  }

  /** The skills offered to the model, and the ones found but not offered, with why. */
  get skills(): SkillSet {
    return this.skillSet;
  }

  /** Looks for skills again (the person added or fixed one); applies from the next turn. */
  async reloadSkills(): Promise<SkillSet> {
    this.skillSet = await discoverSkills(this.projectDir, this.deps.homeDir);
    return this.skillSet;
  }

  /** Calls that started but whose outcome was never saved, not yet acknowledged by the person. */
  get unknownCalls(): readonly UnknownCall[] {
    return this.unknown;
  }

  /** The model input so far (read-only view). */
  get historyItems(): readonly HistoryItem[] {
    return this.history;
  }

  /** The person has seen the unknown results; the session may take questions again. */
  async acknowledge(): Promise<UnknownCall[]> {
    // Once more before the person's acknowledgment closes the matter, for anything that reappeared since resume.
    const calls = withLeftoversRemoved(this.projectDir, this.unknown);
    if (calls.length > 0) {
      await this.log.append({ type: 'acknowledge', call_ids: calls.map((c) => c.call_id) });
      this.unknown = [];
    }
    return calls;
  }

  /** The title the person gave the session; null until they rename it. */
  get title(): string | null {
    return this.namedTitle;
  }

  /**
   * Names the session (saved as a title record; the model never sees it). Allowed
   * while a turn runs: the record changes no history and is written in log order.
   */
  async rename(title: string): Promise<string> {
    const checked = checkedSessionTitle(title);
    await this.log.append({ type: 'title', title: checked });
    this.namedTitle = checked;
    return checked;
  }

  /** `/clear`: same session id, empty history from here on. */
  async clear(): Promise<void> {
    if (this.running) throw new TurnInProgressError();
    await this.log.append({ type: 'clear' });
    this.history = [];
    this.budget.reset();
    this.lastContext = this.lastContext ? { used: 0, window: this.lastContext.window } : null;
  }

  async ask(text: string, options: AskOptions): Promise<TurnOutcome> {
    if (this.running) throw new TurnInProgressError();
    if (this.unknown.length > 0) throw new UnacknowledgedResultsError(this.unknown);
    this.running = true;
    try {
      let model: ModelClient;
      let settings: TurnSettings;
      try {
        model = await this.deps.model();
        settings = await this.deps.turnSettings();
      } catch (error) {
        const outcome: TurnOutcome = { status: 'failed', message: error instanceof Error ? error.message : String(error) };
        options.onEvent?.({ type: 'turn_end', ...outcome });
        return outcome;
      }
      for (const notice of this.deps.notices ? await this.deps.notices() : []) options.onEvent?.({ type: 'notice', message: notice });
      const external = this.deps.externalTools ? await this.deps.externalTools(this.projectDir) : { tools: [], problems: [] };
      for (const problem of external.problems) if (!this.standingProblems.has(problemSubject(problem))) options.onEvent?.({ type: 'notice', message: problem });
      this.standingProblems = new Set(external.problems.map(problemSubject));
      const offered = [...this.deps.builtinTools, ...external.tools];
      // Counted with a free upper bound until a decision needs the tokenizer, which is then loaded (context/tokens.ts).
      const counter = turnCounterFor(settings.model);
      const onEvent = options.onEvent;
      const outcome = runTurn(text, {
        log: this.log,
        history: this.history,
        model,
        tools: new ToolRegistry(offered),
        // Mino's own part first (generated from the tools and the mode rows), then what the person wrote, then the
        // skills. The catalog is the same in every mode: a skill changes what the model knows, never what it may do.
        instructions: composeInstructions([systemPrompt(offered), await this.deps.instructions(), skillCatalogText(this.skillSet.skills)]),
        mode: options.mode,
        approver: options.approver,
        context: { projectDir: this.projectDir, homeDir: this.deps.homeDir, signal: options.signal, skills: this.skillSet.skills },
        preImages: preImageKeeper({
          homeDir: this.deps.homeDir,
          projectDir: this.projectDir,
          log: this.log,
          capBytes: this.deps.checkpointCapBytes ?? (async () => DEFAULT_CHECKPOINT_CAP_MB * 1024 * 1024),
        }),
        onEvent: (event) => {
          if (event.type === 'turn_end' && event.context) this.lastContext = event.context;
          if (event.type === 'reasoning_text') this.sawReasoning = true;
          onEvent?.(event);
        },
        limits: options.limits,
        usedCallIds: this.usedCallIds,
        budget: {
          budget: this.budget,
          ...counter,
          settings: { window: settings.contextWindow, compactAt: settings.compactAt },
          positions: this.positions,
        },
        cacheKey: this.cacheKey,
        reasoning: () =>
          reasoningRequest(settings.reasoning, settings.reasoningEffort, settings.model, this.sawReasoning || this.history.some((item) => item.type === 'reasoning')),
      });
      return await outcome.catch(async (error: unknown) => {
        // Something the loop did not expect (a front end's listener threw, say) may have left calls
        // unpaired in memory; the saved log is the truth, so the history is rebuilt from it.
        trail.error('turn.unexpected_failure', { session: this.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        await this.reloadHistory().catch((reloadError: unknown) => trail.error('session.reload_failed', { session: this.id, error: errorText(reloadError) }));
        throw error;
      });
    } finally {
      this.running = false;
    }
  }

  private async reloadHistory(): Promise<void> {
    const loaded = await loadSession(this.deps.homeDir, this.id, new ToolRegistry(this.deps.builtinTools).validateCall, { fromLastCompaction: true });
    this.history = [...loaded.history];
    this.unknown = [...loaded.unknownCalls];
    // The reloaded items are new objects: their positions are the loader's, and the budget starts again.
    for (const item of loaded.history) {
      const position = loaded.positions.get(item);
      if (position !== undefined) this.positions.set(item, position);
    }
    this.budget.reset();
  }

  /** What each turn's file tools changed, newest turn first, with diffs and what cannot be known (bash, MCP). */
  async changes(): Promise<TurnSummary[]> {
    return (await this.changesWithCount()).turns;
  }

  /** The same, with how many turns the session has had, so a transcript can tell which of its turns each is. */
  async changesWithCount(): Promise<{ turns: TurnSummary[]; turnCount: number }> {
    const changes = await this.sessionChanges();
    const summaries = [];
    for (const turn of changes.turns) summaries.push(await summarizeTurn(this.deps.homeDir, this.id, turn));
    return { turns: summaries.reverse(), turnCount: changes.turnCount };
  }

  /** The files an undo (or redo) would handle, for the person to confirm; throws NothingToReverseError. */
  async reversalPlan(action: ReversalAction, target: { turn?: number; callId?: string } = {}): Promise<{ turn: number; paths: string[] }> {
    const plan = planReversal(await this.sessionChanges(), action, target.turn, target.callId);
    return { turn: plan.turn, paths: [...new Set(plan.changes.map((c) => c.path))] };
  }

  /** Undoes (or redoes) a turn's file changes, or one call's; the person's own act, recorded in the log. */
  async reverse(action: ReversalAction, target: { turn?: number; callId?: string; signal?: AbortSignal } = {}): Promise<ReversalReport> {
    if (this.running) throw new TurnInProgressError();
    this.running = true;
    try {
      return await reverseChanges({
        homeDir: this.deps.homeDir,
        projectDir: this.projectDir,
        log: this.log,
        changes: await this.sessionChanges(),
        action,
        ...target,
      });
    } finally {
      this.running = false;
    }
  }

  private async sessionChanges(): Promise<SessionChanges> {
    const registry = new ToolRegistry(this.deps.builtinTools);
    const loaded = await loadSession(this.deps.homeDir, this.id, registry.validateCall);
    // What bash and MCP tools change cannot be known, so those calls are counted, not tracked.
    const untracked = (name: string) => {
      const tool = registry.get(name);
      return tool ? tool.kind === 'bash' || tool.kind === 'mcp' : isMcpToolName(name);
    };
    return sessionChanges(loaded.records, untracked);
  }

  async close(): Promise<void> {
    try {
      await this.log.close();
    } finally {
      this.sessionLock?.release();
    }
  }
}

/**
 * Removes the temporary files each unknown call's tool start named (a write
 * cut short leaves one in the project), adding the removed ones to what the
 * person is told about the call.
 */
function withLeftoversRemoved(projectDir: string, calls: readonly UnknownCall[]): UnknownCall[] {
  return calls.map((call) => {
    if (!call.temp_files || call.temp_files.length === 0) return call;
    const { removed } = removeLeftoverTemporaryFiles(projectDir, call.temp_files);
    if (removed.length === 0) return call;
    return { ...call, removed_temp_files: [...(call.removed_temp_files ?? []), ...removed] };
  });
}

/**
 * Ends what each unknown bash call left running (found by the mark its tool
 * start saved), before the person checks the project, so nothing goes on
 * writing after they acknowledge; the call says whether it was still running.
 */
async function withSurvivorsEnded(calls: readonly UnknownCall[]): Promise<UnknownCall[]> {
  const result: UnknownCall[] = [];
  for (const call of calls) {
    if (!call.process_mark) result.push(call);
    else result.push({ ...call, survivors: await endSurvivors(call.process_mark) });
  }
  return result;
}
