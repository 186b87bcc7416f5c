// What a Conversation is made of when it opens: a new session's empty parts,
// or a saved session's, loaded from its log. Loading runs only the pure
// validation of recorded calls: nothing is inspected or re-run. The caller
// holds the session's lock before either is made.
import { ContextBudget } from '../context/budget';
import type { HistoryPositions } from '../context/compact';
import type { HistoryItem } from '../model/types';
import { parseSession, readSessionFile, type UnknownCall } from '../sessions/load';
import type { SessionRecord } from '../sessions/records';
import { SessionLog } from '../sessions/sessionLog';
import { discoverSkills, type SkillSet } from '../skills/discoverSkills';
import { log as trail } from '../log/log';
import type { SessionId } from '../../../shared/domain';
import type { ConversationDeps } from './conversationDeps';
import { ToolRegistry } from './toolRegistry';
import { settledUnknownCalls } from './unknownResults';

export interface SessionParts {
  log: SessionLog;
  projectDir: string;
  history: HistoryItem[];
  /** Where the person's messages and summaries are in the log, for compaction's cut. */
  positions: HistoryPositions;
  budget: ContextBudget;
  unknown: UnknownCall[];
  /** Problems found while loading (e.g. a truncated last line that was set aside). */
  problems: ReadonlyArray<{ line: number; message: string }>;
  /** Every call id in the log, so a model that repeats one cannot make the log ambiguous. */
  usedCallIds: Set<string>;
  /** Found when the session starts or is loaded; never from the log. */
  skills: SkillSet;
  /** The records loaded, for a window to replay; null for a new session, or when records before a compaction were not read. */
  records: readonly SessionRecord[] | null;
  /** The title the person gave the session; null until they rename it. */
  title: string | null;
  /** The service and model its log last recorded (its last `model` record); null for a new session or a log with none. */
  model: { service: string; model: string } | null;
  /** An undo or redo began and never ended (Mino was stopped mid-way): its temporary file may still be in the project. */
  interruptedReversal: boolean;
}

/** Whether some reversal_start in `records` has no reversal_end: one pass, no change bookkeeping. */
function hasInterruptedReversal(records: readonly SessionRecord[]): boolean {
  const open = new Set<string>();
  for (const record of records) {
    if (record.type === 'reversal_start') open.add(record.reversal_id);
    else if (record.type === 'reversal_end') open.delete(record.reversal_id);
  }
  return open.size > 0;
}

/** The parts of a session just created in `projectDir` (its log holds only the header). */
export async function newSessionParts(deps: ConversationDeps, log: SessionLog, projectDir: string): Promise<SessionParts> {
  return {
    log,
    projectDir,
    history: [],
    positions: new WeakMap(),
    budget: new ContextBudget(),
    unknown: [],
    problems: [],
    usedCallIds: new Set(),
    skills: await discoverSkills(projectDir, deps.homeDir),
    records: null,
    title: null,
    model: null,
    interruptedReversal: false,
  };
}

/**
 * Loads a saved session from its last compaction on (the history before it
 * is the summary's, so it is not rebuilt). The file is read once: loading
 * parses it first (a damaged log is refused before anything is opened), then
 * it is opened for append, which sets a broken last line aside.
 */
export async function savedSessionParts(deps: ConversationDeps, id: SessionId): Promise<SessionParts> {
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
    return {
      log,
      projectDir: loaded.projectDir,
      history: [...loaded.history],
      positions: loaded.positions,
      budget: new ContextBudget(loaded.lastUsage),
      unknown: await settledUnknownCalls(loaded.projectDir, loaded.unknownCalls),
      problems,
      usedCallIds: loaded.usedCallIds,
      skills,
      // Records before a compaction were not read; a window showing the whole transcript reads the log itself then.
      records: loaded.skippedRecords ? null : loaded.records,
      title: loaded.title,
      model: loaded.model,
      interruptedReversal: hasInterruptedReversal(loaded.records),
    };
  } catch (error) {
    await log.close();
    throw error;
  }
}
