// What each turn's file tools changed in a session, and taking it back: the
// changes are read from the saved log (the log is the truth, also for turns
// before a compaction), and an undo or redo is the person's own act, recorded
// in the log like a turn.
import type { SessionId } from '../../../shared/domain';
import { summarizeTurn, type TurnSummary } from '../checkpoints/changeSummary';
import { planReversal, removeReversalLeftovers, reverseChanges, type ReversalAction, type ReversalReport } from '../checkpoints/reverseChanges';
import { sessionChanges, type SessionChanges } from '../checkpoints/turnChanges';
import { isMcpToolName } from '../mcp/toolName';
import { loadSession } from '../sessions/load';
import type { SessionLog } from '../sessions/sessionLog';
import type { AnyTool } from '../tools/types';
import { ToolRegistry } from './toolRegistry';

export interface UndoSession {
  homeDir: string;
  projectDir: string;
  log: SessionLog;
  /** The tools that check the saved calls and say which calls' changes are tracked. */
  builtinTools: readonly AnyTool[];
}

/** Which turn or call an undo or redo takes back: default, the last turn with changes. */
export interface ReversalTarget {
  turn?: number;
  callId?: string;
}

export class UndoHistory {
  constructor(private readonly session: UndoSession) {}

  private get id(): SessionId {
    return this.session.log.id;
  }

  /** Each turn's changes, newest turn first, with how many turns the session has had. */
  async changesWithCount(): Promise<{ turns: TurnSummary[]; turnCount: number }> {
    const changes = await this.sessionChanges();
    const summaries = [];
    for (const turn of changes.turns) summaries.push(await summarizeTurn(this.session.homeDir, this.id, turn));
    return { turns: summaries.reverse(), turnCount: changes.turnCount };
  }

  /** The files an undo (or redo) would handle, for the person to confirm; throws NothingToReverseError. */
  async reversalPlan(action: ReversalAction, target: ReversalTarget = {}): Promise<{ turn: number; paths: string[] }> {
    const plan = planReversal(await this.sessionChanges(), action, target.turn, target.callId);
    return { turn: plan.turn, paths: [...new Set(plan.changes.map((c) => c.path))] };
  }

  /** Undoes (or redoes) a turn's file changes, or one call's. The caller holds the session busy meanwhile. */
  async reverse(action: ReversalAction, target: ReversalTarget & { signal?: AbortSignal } = {}): Promise<ReversalReport> {
    const { homeDir, projectDir, log } = this.session;
    return reverseChanges({ homeDir, projectDir, log, changes: await this.sessionChanges(), action, ...target });
  }

  /**
   * Removes the temporary file an undo or redo cut short left in the project
   * (its name is in the reversal's first record); the reversal itself is
   * finished by the next undo or redo. Returns the paths removed.
   */
  async removeInterruptedLeftovers(): Promise<string[]> {
    return removeReversalLeftovers(this.session.projectDir, await this.sessionChanges());
  }

  private async sessionChanges(): Promise<SessionChanges> {
    const registry = new ToolRegistry(this.session.builtinTools);
    const loaded = await loadSession(this.session.homeDir, this.id, registry.validateCall);
    // What bash and MCP tools change cannot be known, so those calls are counted, not tracked.
    const untracked = (name: string) => {
      const tool = registry.get(name);
      return tool ? tool.kind === 'bash' || tool.kind === 'mcp' : isMcpToolName(name);
    };
    return sessionChanges(loaded.records, untracked);
  }
}
