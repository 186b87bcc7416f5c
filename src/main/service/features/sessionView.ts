// A session as its window shows it, with its saved past replayed for a
// window that adopts it. Pure of the registry: everything it needs is passed in.
import type { PermissionMode } from '../../../shared/domain';
import type { ContextUse, SessionView, SummaryView, TurnEvent } from '../../../shared/sessions';
import { BUILTIN_TOOLS } from '../../core/agent/defaultDeps';
import { ToolRegistry } from '../../core/agent/toolRegistry';
import { loadSession } from '../../core/sessions/load';
import type { SessionRecord } from '../../core/sessions/records';
import { replayEvents } from '../../core/sessions/replayEvents';
import type { OpenSession } from './openSession';
import { errorText, log } from '../../core/log/log';
import { sessionLabel } from '../../../shared/sessionTitle';

// The view shows what was saved; the log was validated when the session opened, so showing it needs no tool checks.
const acceptEveryCall = () => ({ ok: true }) as const;
/** How a saved call's card looks; built-in tools by their declarations, MCP tools by their names. */
export const savedToolDisplay = new ToolRegistry(BUILTIN_TOOLS).display;

/**
 * With `withPast` (a window adopting the session) the saved conversation is
 * read from the log now; without it the view costs nothing however long the
 * session has grown. `loadedRecords` are records just loaded from the log,
 * shown instead of reading it again. Also notes the first question, for titles.
 */
export async function sessionView(
  homeDir: string,
  session: OpenSession,
  mode: PermissionMode,
  withPast: boolean,
  loadedRecords: readonly SessionRecord[] | null = null,
): Promise<SessionView> {
  const loadProblems = session.conversation.loadProblems.map((problem) => problem.message);
  const view: SessionView = {
    id: session.id,
    projectDir: session.conversation.projectDir,
    title: sessionLabel(session.firstQuestion, session.conversation.title),
    mode,
    busy: session.turn !== null,
    unknownCalls: session.conversation.unknownCalls.map((call) => ({
      callId: call.call_id,
      name: call.name,
      arguments: call.arguments,
      ...(call.removed_temp_files ? { removedTempFiles: call.removed_temp_files } : {}),
      ...(call.survivors ? { survivors: call.survivors } : {}),
    })),
    loadProblems,
    ...(session.conversation.projectInstructions ? { projectInstructions: session.conversation.projectInstructions } : {}),
  };
  if (!withPast) return view;
  let past: TurnEvent[] = [];
  try {
    past = replayEvents(loadedRecords ?? (await loadSession(homeDir, session.id, acceptEveryCall)).records, savedToolDisplay);
  } catch (error) {
    loadProblems.push(`The saved conversation cannot be shown: ${error instanceof Error ? error.message : String(error)}`);
    log.warn('session.replay_failed', { session: session.id, error: errorText(error) });
  }
  const first = past.find((event) => event.type === 'user_message');
  session.firstQuestion = first?.type === 'user_message' ? first.text : null;
  return { ...view, title: sessionLabel(session.firstQuestion, session.conversation.title), past, context: await contextUse(session), summary: summaryView(session, past) };
}

/** As last counted, or counted now for a window that just opened the session; null (and logged) if it cannot be. */
async function contextUse(session: OpenSession): Promise<ContextUse | null> {
  try {
    return session.conversation.context ?? (await session.conversation.countContext());
  } catch (error) {
    log.warn('session.context_count_failed', { session: session.id, error: errorText(error) });
    return null;
  }
}

/** The summary in force, with what it replaced from the last compaction shown. */
function summaryView(session: OpenSession, past: readonly TurnEvent[]): SummaryView | null {
  const summary = session.conversation.summary;
  const last = past.findLast((event) => event.type === 'compaction');
  if (!summary || last?.type !== 'compaction') return null;
  return { text: summary.text, author: summary.author, summarized: last.summarized, keptTurns: last.keptTurns };
}
