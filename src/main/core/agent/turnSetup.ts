// What one question runs with, read fresh for it so that settings, servers
// and skills changed between turns apply: the model client and settings, the
// notices the person is owed, the tools offered (built-in, and those of MCP
// servers, whose problems are told once while they stand), and the options
// the turn loop (runTurn.ts) takes. The service and model the turn uses are
// recorded in the session's log when they are not the ones it last recorded,
// and each response is saved with the model that answered.
import { toolsOffIn } from '../rules/callRules';
import { DEFAULT_CHECKPOINT_CAP_MB, preImageKeeper } from '../checkpoints/keepPreImages';
import { problemSubject } from '../mcp/problems';
import { reasoningRequest } from '../model/reasoning';
import type { ModelClient } from '../model/types';
import { sessionModelChoice } from '../sessions/load';
import type { SessionLog } from '../sessions/sessionLog';
import type { SkillSet } from '../skills/discoverSkills';
import type { AnyTool } from '../tools/types';
import type { ConversationContext } from './conversationContext';
import type { AskOptions, ConversationDeps, TurnSettings } from './conversationDeps';
import type { TurnEventListener } from './events';
import { sessionInstructions } from './instructions';
import type { TurnOptions, TurnOutcome } from './runTurn';
import { ToolRegistry } from './toolRegistry';

/**
 * Turn settings that also name the configured service the model is asked
 * through, as the deps of defaultDeps.ts give them. Deps that do not (tests'
 * own) record no model choice.
 */
export interface ServiceTurnSettings extends TurnSettings {
  service: string;
}

function hasService(settings: TurnSettings): settings is ServiceTurnSettings {
  return typeof (settings as Partial<ServiceTurnSettings>).service === 'string';
}

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
  if (hasService(settings)) await recordModelChoice(log, deps.homeDir, { service: settings.service, model: settings.model });
  return {
    log: answeredBy(log, settings.model),
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
    ...(options.images?.length ? { images: options.images } : {}),
    ...(options.retry ? { retry: true } : {}),
  };
}

type ModelChoice = { service: string; model: string };

/** The service and model each open log last recorded, so a choice is recorded once, and again only when it changes. */
const recordedChoice = new WeakMap<SessionLog, string>();

/** Saves a model record when `choice` is not what the session last recorded (a new session has recorded nothing). */
async function recordModelChoice(log: SessionLog, homeDir: string, choice: ModelChoice): Promise<void> {
  let last = recordedChoice.get(log);
  if (last === undefined) {
    // Once per opening: the log holds only its header (new), or is read for its last model record (resumed).
    const saved = log.nextPosition <= 1 ? null : await sessionModelChoice(homeDir, log.id);
    last = saved ? choiceKey(saved) : '';
  }
  const now = choiceKey(choice);
  if (now !== last) await log.append({ type: 'model', service: choice.service, model: choice.model });
  recordedChoice.set(log, now);
}

function choiceKey(choice: ModelChoice): string {
  return JSON.stringify([choice.service, choice.model]);
}

/**
 * The log as the turn loop writes it, each response saved with the model
 * that answered. Everything else is the log itself: this object only stands
 * in front of its append.
 */
function answeredBy(log: SessionLog, model: string): SessionLog {
  const named = Object.create(log) as SessionLog;
  named.append = (record) => log.append(record.type === 'response' ? { ...record, model } : record);
  return named;
}
