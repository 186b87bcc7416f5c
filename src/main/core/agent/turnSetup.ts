// What one question runs with, read fresh for it so that settings, servers
// and skills changed between turns apply: the model client and settings, the
// notices the person is owed, the tools offered (built-in, and those of MCP
// servers, whose problems are told once while they stand), and the options
// the turn loop (runTurn.ts) takes.
import { toolsOffIn } from '../rules/callRules';
import { DEFAULT_CHECKPOINT_CAP_MB, preImageKeeper } from '../checkpoints/keepPreImages';
import { problemSubject } from '../mcp/problems';
import { reasoningRequest } from '../model/reasoning';
import type { ModelClient } from '../model/types';
import type { SessionLog } from '../sessions/sessionLog';
import type { SkillSet } from '../skills/discoverSkills';
import type { AnyTool } from '../tools/types';
import type { ConversationContext } from './conversationContext';
import type { AskOptions, ConversationDeps, TurnSettings } from './conversationDeps';
import type { TurnEventListener } from './events';
import { sessionInstructions } from './instructions';
import type { TurnOptions, TurnOutcome } from './runTurn';
import { ToolRegistry } from './toolRegistry';

/** What a turn reads before it starts. */
export interface TurnReadings {
  model: ModelClient;
  settings: TurnSettings;
  /** Built-in tools first, then the external servers'. */
  tools: AnyTool[];
}

/** What the last turn's MCP problems were about: one that stands is told once, one that cleared and came back again. */
export class StandingProblems {
  private subjects: ReadonlySet<string> = new Set();

  /** Tells the problems not already standing, then remembers what stands now. */
  tell(problems: readonly string[], say: (problem: string) => void): void {
    for (const problem of problems) if (!this.subjects.has(problemSubject(problem))) say(problem);
    this.subjects = new Set(problems.map(problemSubject));
  }
}

/**
 * Reads the model, the settings and the tools, telling the notices and new
 * MCP problems on the way. When the model or the settings cannot be had (a
 * missing key, say), the turn ends failed before it starts: that outcome is
 * returned, its turn_end already told.
 */
export async function readTurn(
  deps: ConversationDeps,
  projectDir: string,
  standing: StandingProblems,
  onEvent: TurnEventListener | undefined,
): Promise<{ ready: TurnReadings } | { ended: TurnOutcome }> {
  let model: ModelClient;
  let settings: TurnSettings;
  try {
    model = await deps.model();
    settings = await deps.turnSettings();
  } catch (error) {
    const outcome: TurnOutcome = { status: 'failed', message: error instanceof Error ? error.message : String(error) };
    onEvent?.({ type: 'turn_end', ...outcome });
    return { ended: outcome };
  }
  for (const notice of deps.notices ? await deps.notices() : []) onEvent?.({ type: 'notice', message: notice });
  const external = deps.externalTools ? await deps.externalTools(projectDir) : { tools: [], problems: [] };
  standing.tell(external.problems, (problem) => onEvent?.({ type: 'notice', message: problem }));
  // A tool the person switched off (`off TOOL`, read per turn) is not offered at all; a call to it is refused as unknown.
  const off = await toolsOffIn({ homeDir: deps.homeDir, projectDir });
  return { ready: { model, settings, tools: [...deps.builtinTools, ...external.tools].filter((tool) => !off.has(tool.name)) } };
}

/** The session as a turn runs in it. */
export interface TurnSession {
  deps: ConversationDeps;
  log: SessionLog;
  projectDir: string;
  context: ConversationContext;
  usedCallIds: Set<string>;
  skills: SkillSet;
  cacheKey: string;
}

/** The turn loop's options for one question in `session`, with what `readTurn` read. */
export async function turnOptions(session: TurnSession, { model, settings, tools }: TurnReadings, options: AskOptions): Promise<TurnOptions> {
  const { deps, log, projectDir, context } = session;
  const onEvent = options.onEvent;
  return {
    log,
    history: context.history,
    model,
    tools: new ToolRegistry(tools),
    instructions: sessionInstructions(tools, await deps.instructions(), session.skills.skills),
    mode: options.mode,
    approver: options.approver,
    context: { projectDir, homeDir: deps.homeDir, signal: options.signal, skills: session.skills.skills },
    preImages: preImageKeeper({
      homeDir: deps.homeDir,
      projectDir,
      log,
      capBytes: deps.checkpointCapBytes ?? (async () => DEFAULT_CHECKPOINT_CAP_MB * 1024 * 1024),
    }),
    onEvent: (event) => {
      context.noteEvent(event);
      onEvent?.(event);
    },
    limits: options.limits,
    usedCallIds: session.usedCallIds,
    // Counted with a free upper bound until a decision needs the tokenizer, which is then loaded (context/tokens.ts).
    budget: context.turnBudget(settings),
    cacheKey: session.cacheKey,
    reasoning: () => reasoningRequest(settings.reasoning, settings.reasoningEffort, settings.model, context.reasoningSeen),
  };
}
