// A session a person talks in: its log, its model history and its unknown
// results. The CLI and the desktop service both drive sessions through this
// class, so they share one set of rules. The permission mode is not here: it
// belongs to the front end's memory, never to the session.
//
// The class holds the session's state and the one rule every feature obeys:
// one thing at a time changes the session (a turn, a compaction, an undo).
// The features live beside it: the history and its compaction in
// conversationContext.ts, what a turn runs with in turnSetup.ts, the turn
// loop in runTurn.ts, undo and redo in undoHistory.ts, unknown results in
// unknownResults.ts, opening in sessionParts.ts, the project's instruction
// file (AGENTS.md) in projectGuidance.ts.
import type { SessionId } from '../../../shared/domain';
import type { CompactionEvent, ContextUse, ProjectInstructionsView } from '../../../shared/sessions';
import { checkedSessionTitle } from '../../../shared/sessionTitle';
import type { TurnSummary } from '../checkpoints/changeSummary';
import type { ReversalAction, ReversalReport } from '../checkpoints/reverseChanges';
import { promptCacheKey } from '../context/cacheKey';
import { lockSession, type SessionLock } from '../locks/sessionLock';
import { errorText, log as trail } from '../log/log';
import type { HistoryItem } from '../model/types';
import { loadSession, type UnknownCall } from '../sessions/load';
import type { SessionRecord } from '../sessions/records';
import { SessionLog } from '../sessions/sessionLog';
import { discoverSkills, type SkillSet } from '../skills/discoverSkills';
import { imagesRefusal } from '../images/imageSupport';
import { ConversationContext } from './conversationContext';
import type { AskOptions, ConversationDeps } from './conversationDeps';
import { TurnInProgressError, UnacknowledgedResultsError } from './conversationErrors';
import { composeInstructions, sessionInstructions } from './instructions';
import { ProjectGuidance } from './projectGuidance';
import { turnModeNote } from './systemPrompt';
import { runTurn, type TurnOutcome } from './runTurn';
import { SteeringInbox } from './steeringInbox';
import { newSessionParts, savedSessionParts, type SessionParts } from './sessionParts';
import { ToolRegistry } from './toolRegistry';
import type { RequestParts } from './turnBudget';
import { readTurn, StandingProblems, turnOptions } from './turnSetup';
import { UndoHistory, type ReversalTarget } from './undoHistory';
import { acknowledgeUnknownCalls } from './unknownResults';

export type { AskOptions, ConversationDeps, TurnSettings } from './conversationDeps';
export { CompactionError, TurnInProgressError, UnacknowledgedResultsError } from './conversationErrors';
export type { UnknownCall };

export class Conversation {
  private running = false;
  /** The running turn's messages sent to it ("Send now"); null while no turn runs. */
  private steeringInbox: SteeringInbox | null = null;
  private loadedRecords: readonly SessionRecord[] | null;
  private readonly log: SessionLog;
  readonly projectDir: string;
  /** The service and model its log last recorded when opened (read with the log); null when none. */ readonly recordedModel: { service: string; model: string } | null;
  /** Problems found while loading (e.g. a truncated last line that was set aside). */
  readonly loadProblems: ReadonlyArray<{ line: number; message: string }>;
  /** The history and its costs (the `context` getter is only the figure the meter shows). */
  private readonly contextState: ConversationContext;
  private unknown: UnknownCall[];
  /** Every call id in the log, so a model that repeats one cannot make the log ambiguous. */
  private readonly usedCallIds: Set<string>;
  /** Found when the session starts or is loaded, and again on reloadSkills; never from the log. */
  private skillSet: SkillSet;
  /** The title the person gave the session (its last title record); null until they rename it. */
  private namedTitle: string | null;
  private readonly standingProblems = new StandingProblems();
  private readonly undo: UndoHistory;
  /** The project's AGENTS.md (or CLAUDE.md): read at opening, and again when a turn finds it changed. */
  private readonly guidance: ProjectGuidance;
  /** The deps a turn runs with: the person's instructions followed by the project's. */
  private readonly turnDeps: ConversationDeps;

  private constructor(
    private readonly deps: ConversationDeps,
    parts: SessionParts,
    /** Held from opening to close, so no other process appends to this session meanwhile. */
    private readonly sessionLock: SessionLock,
  ) {
    this.log = parts.log;
    this.projectDir = parts.projectDir;
    this.loadProblems = parts.problems;
    this.unknown = parts.unknown;
    this.usedCallIds = parts.usedCallIds;
    this.skillSet = parts.skills;
    this.namedTitle = parts.title;
    this.recordedModel = parts.model;
    this.loadedRecords = parts.records;
    const sources = { log: this.log, turnSettings: deps.turnSettings, model: deps.model, fixedParts: () => this.fixedParts(), cacheKey: this.cacheKey };
    this.contextState = new ConversationContext(sources, parts.history, parts.positions, parts.budget);
    this.undo = new UndoHistory({ homeDir: deps.homeDir, projectDir: this.projectDir, log: this.log, builtinTools: deps.builtinTools });
    this.guidance = new ProjectGuidance(this.projectDir, deps);
    this.turnDeps = { ...deps, instructions: () => this.personAndProjectInstructions() };
  }

  /** A new, empty session for a project. */
  static async start(deps: ConversationDeps, projectDir: string): Promise<Conversation> {
    const log = await SessionLog.create(deps.homeDir, projectDir);
    let lock: SessionLock | null = null;
    try {
      lock = lockSession(deps.homeDir, log.id, deps.owner ?? 'Mino');
      const conversation = new Conversation(deps, await newSessionParts(deps, log, projectDir), lock);
      await conversation.guidance.load();
      return conversation;
    } catch (error) {
      lock?.release();
      await log.close();
      throw error;
    }
  }

  /** Continues a saved session (see savedSessionParts for what is loaded and checked). */
  static async resume(deps: ConversationDeps, id: SessionId): Promise<Conversation> {
    // Locked before the file is read, so what is read is what this writer continues from.
    const lock = lockSession(deps.homeDir, id, deps.owner ?? 'Mino');
    let conversation: Conversation | null = null;
    try {
      const parts = await savedSessionParts(deps, id);
      conversation = new Conversation(deps, parts, lock);
      await conversation.guidance.load();
      if (parts.interruptedReversal) {
        const removed = await conversation.undo.removeInterruptedLeftovers();
        if (removed.length > 0) trail.info('session.reversal_leftovers_removed', { session: id, files: removed.join(', ') });
      }
      return conversation;
    } catch (error) {
      if (conversation) await conversation.close();
      else lock.release();
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

  get busy(): boolean {
    return this.running;
  }

  /** The context in use now and the window, as last counted (after a turn, a compaction or `countContext`). */
  get context(): ContextUse | null {
    return this.contextState.use;
  }

  /** Counts the context in use now with the current settings (e.g. for a window that just opened the session). */
  countContext(): Promise<ContextUse> {
    return this.contextState.count();
  }

  /** The summary in force, if the history starts with one. */
  get summary(): { text: string; author: 'model' | 'person' } | null {
    return this.contextState.summary;
  }

  /** The model input so far (read-only view). */
  get historyItems(): readonly HistoryItem[] {
    return this.contextState.history;
  }

  /**
   * The person asked to compact now (between turns): every whole turn that
   * does not fit the kept share is summarized. Throws CompactionError with a
   * message for the person when it cannot be done; nothing is changed then.
   */
  compact(options: { signal?: AbortSignal } = {}): Promise<CompactionEvent> {
    return this.exclusive(() => this.contextState.compact(options.signal), { unknownResolved: true });
  }

  /** The person rewrote the summary in force: saved as a new compaction record written by the person. */
  editSummary(text: string): Promise<CompactionEvent> {
    return this.exclusive(() => this.contextState.editSummary(text));
  }

  /** `/clear`: same session id, empty history from here on. */
  async clear(): Promise<void> {
    if (this.running) throw new TurnInProgressError();
    await this.contextState.clear();
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

  /** The person has seen the unknown results; the session may take questions again. */
  async acknowledge(): Promise<UnknownCall[]> {
    const calls = await acknowledgeUnknownCalls(this.log, { homeDir: this.deps.homeDir, projectDir: this.projectDir }, this.unknown);
    if (calls.length > 0) this.unknown = [];
    return calls;
  }

  /** The project's instruction file as the model is told it (file, tokens, text); null when the project has none. */
  get projectInstructions(): ProjectInstructionsView | null {
    return this.guidance.view;
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

  /** One question: a turn of the loop in runTurn.ts, with what it runs with read fresh (turnSetup.ts). */
  ask(text: string, options: AskOptions): Promise<TurnOutcome> {
    return this.exclusive(() => this.withSteering(async (steering) => {
      // The instruction file changed since it was read (its stat differs): read again, and the person told.
      await this.guidance.refresh();
      const untold = this.guidance.untold();
      if (untold !== undefined) options.onEvent?.({ type: 'project_instructions', instructions: untold });
      const read = await readTurn(this.deps, this.projectDir, this.standingProblems, options.onEvent);
      if ('ended' in read) return read.ended;
      // Images to a service set to take none: refused before anything is saved or sent (images/imageSupport.ts).
      const refused = imagesRefusal(options.images, read.ready.settings);
      if (refused !== null) {
        options.onEvent?.({ type: 'turn_end', status: 'failed', message: refused });
        return { status: 'failed', message: refused };
      }
      // A turn that starts in plan mode is told so, with what the mode is for (systemPrompt.ts).
      const note = turnModeNote(typeof options.mode === 'function' ? options.mode() : options.mode);
      const deps = note === '' ? this.turnDeps : { ...this.turnDeps, instructions: async () => composeInstructions([await this.turnDeps.instructions(), note]) };
      const session = { deps, log: this.log, projectDir: this.projectDir, context: this.contextState, usedCallIds: this.usedCallIds, skills: this.skillSet, cacheKey: this.cacheKey };
      const outcome = runTurn(text, { ...(await turnOptions(session, read.ready, options)), steering });
      return outcome.catch(async (error: unknown) => {
        // Something the loop did not expect (a front end's listener threw, say) may have left calls
        // unpaired in memory; the saved log is the truth, so the history is rebuilt from it.
        trail.error('turn.unexpected_failure', { session: this.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        await this.reloadHistory().catch((reloadError: unknown) => trail.error('session.reload_failed', { session: this.id, error: errorText(reloadError) }));
        throw error;
      });
    }), { unknownResolved: true });
  }

  /**
   * Hands `text` to the running turn, which sends it before its next model
   * request ("Send now"); false when no turn takes messages now (none runs, or
   * it has made its last request), so the front end sends it as the next turn.
   */
  steer(text: string): boolean {
    return this.steeringInbox?.put(text) ?? false;
  }

  /** Runs a turn with an inbox for the messages the person sends it; the inbox closes when the turn ends. */
  private async withSteering<T>(work: (inbox: SteeringInbox) => Promise<T>): Promise<T> {
    const inbox = (this.steeringInbox = new SteeringInbox());
    try {
      return await work(inbox);
    } finally {
      inbox.close();
      if (this.steeringInbox === inbox) this.steeringInbox = null;
    }
  }

  /** What each turn's file tools changed, newest turn first, with diffs and what cannot be known (bash, MCP). */
  async changes(): Promise<TurnSummary[]> {
    return (await this.undo.changesWithCount()).turns;
  }

  /** The same, with how many turns the session has had, so a transcript can tell which of its turns each is. */
  changesWithCount(): Promise<{ turns: TurnSummary[]; turnCount: number }> {
    return this.undo.changesWithCount();
  }

  /** The files an undo (or redo) would handle, for the person to confirm; throws NothingToReverseError. */
  reversalPlan(action: ReversalAction, target: ReversalTarget = {}): Promise<{ turn: number; paths: string[] }> {
    return this.undo.reversalPlan(action, target);
  }

  /** Undoes (or redoes) a turn's file changes, or one call's; the person's own act, recorded in the log. */
  reverse(action: ReversalAction, target: ReversalTarget & { signal?: AbortSignal } = {}): Promise<ReversalReport> {
    return this.exclusive(() => this.undo.reverse(action, target));
  }

  async close(): Promise<void> {
    try {
      await this.log.close();
    } finally {
      this.sessionLock.release();
    }
  }

  /**
   * Runs `work` as the one thing changing the session: refused while another
   * runs (TurnInProgressError) and, with `unknownResolved`, while unknown
   * results wait for the person (UnacknowledgedResultsError). The session is
   * marked busy before anything is awaited, so two callers cannot both start.
   */
  private async exclusive<T>(work: () => Promise<T>, needs: { unknownResolved?: boolean } = {}): Promise<T> {
    if (this.running) throw new TurnInProgressError();
    if (needs.unknownResolved && this.unknown.length > 0) throw new UnacknowledgedResultsError(this.unknown);
    this.running = true;
    try {
      return await work();
    } finally {
      this.running = false;
    }
  }

  /** What every request carries besides the history: the instructions and the built-in tools' specs. */
  private async fixedParts(): Promise<RequestParts> {
    const builtin = [...this.deps.builtinTools];
    return { instructions: sessionInstructions(builtin, await this.personAndProjectInstructions(), this.skillSet.skills), tools: new ToolRegistry(builtin).specs() };
  }

  /** What the person wrote (SOUL.md), then the project's instructions, marked as the project's: after Mino's own part. */
  private async personAndProjectInstructions(): Promise<string> {
    return composeInstructions([await this.deps.instructions(), this.guidance.section]);
  }

  private async reloadHistory(): Promise<void> {
    const loaded = await loadSession(this.deps.homeDir, this.id, new ToolRegistry(this.deps.builtinTools).validateCall, { fromLastCompaction: true });
    this.contextState.replaceWith(loaded);
    this.unknown = [...loaded.unknownCalls];
  }
}
