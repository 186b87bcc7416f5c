// Calls that started but whose outcome was never saved: Mino stopped while
// they ran. They are never run again; what they may have left behind is
// cleared before the person checks the project, and the session takes no new
// question until the person acknowledges them.
import { removeLeftoverTemporaryFiles } from '../fs/leftoverTemporaryFiles';
import { ledgerAcknowledged } from '../rules/callRules';
import type { UnknownCall } from '../sessions/load';
import type { SessionLog } from '../sessions/sessionLog';
import { endSurvivors } from '../tools/survivors';

/** The unknown calls of a session being resumed, with their leftover files removed and surviving processes ended. */
export async function settledUnknownCalls(projectDir: string, calls: readonly UnknownCall[]): Promise<UnknownCall[]> {
  return withSurvivorsEnded(withLeftoversRemoved(projectDir, calls));
}

/**
 * Records that the person has seen `calls` (in the decision ledger, then an
 * acknowledge record); returns them as acknowledged, after one more look for
 * leftovers, for anything that reappeared since the session was resumed.
 */
export async function acknowledgeUnknownCalls(log: SessionLog, where: { homeDir: string; projectDir: string }, calls: readonly UnknownCall[]): Promise<UnknownCall[]> {
  const settled = withLeftoversRemoved(where.projectDir, calls);
  if (settled.length === 0) return settled;
  await ledgerAcknowledged(where, log.id, settled.map((call) => ({ call_id: call.call_id, name: call.name, target: targetOf(call.arguments) })));
  await log.append({ type: 'acknowledge', call_ids: settled.map((c) => c.call_id) });
  return settled;
}

/** What a call acted on, for the ledger: its path or its command, read from its saved arguments. */
function targetOf(argumentsText: string): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(argumentsText);
  } catch {
    // ignore: arguments that do not parse name no target; the entry still names the call and its tool
    return undefined;
  }
  if (typeof args !== 'object' || args === null) return undefined;
  const { path, command } = args as { path?: unknown; command?: unknown };
  return typeof path === 'string' ? path : typeof command === 'string' ? command : undefined;
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
