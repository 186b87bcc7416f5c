// `mino compact --session ID`: summarize a saved session's earlier turns now,
// the same compaction Mino runs by itself near the context window.
import { CompactionError, Conversation, UnacknowledgedResultsError } from '../main/core/agent/conversation';
import { minoHomeProblem } from '../main/core/config/homeErrors';
import { resolveHomeDir } from '../main/core/config/minoHome';
import { SessionLockedError } from '../main/core/locks/sessionLock';
import { ModelError } from '../main/core/model/types';
import { SessionLoadError } from '../main/core/sessions/load';
import type { CompactArgs } from './args';
import { cliSessionDeps, escapedIo, EXIT, failWith, type ExecIo } from './exec';
import { compactionJson, compactionLine } from './printers';

export async function runCompact(args: CompactArgs, rawIo: ExecIo): Promise<number> {
  const io = escapedIo(rawIo);
  const fail = failWith(io);
  let homeDir: string;
  try {
    homeDir = resolveHomeDir(io.env);
  } catch (error) {
    return fail((error as Error).message, EXIT.usage);
  }
  try {
    return await compactInHome(args, io, homeDir, fail);
  } catch (error) {
    const problem = minoHomeProblem(error, homeDir);
    if (problem !== undefined) return fail(problem, EXIT.usage);
    throw error;
  }
}

async function compactInHome(args: CompactArgs, io: ExecIo, homeDir: string, fail: (message: string, code: number) => number): Promise<number> {
  const setup = await cliSessionDeps(homeDir, io, fail);
  if (typeof setup === 'number') return setup;
  let conversation: Conversation;
  try {
    conversation = await Conversation.resume(setup.deps, args.sessionId);
  } catch (error) {
    await setup.close();
    if (error instanceof SessionLoadError || error instanceof SessionLockedError) return fail(error.message, EXIT.usage);
    throw error;
  }
  try {
    const event = await conversation.compact();
    if (args.json) io.stdout.write(`${JSON.stringify(compactionJson(event))}\n`);
    else io.stdout.write(`${compactionLine(event)}\n\nSummary:\n${event.summary}\n`);
    return EXIT.completed;
  } catch (error) {
    if (error instanceof UnacknowledgedResultsError) return fail(`${error.message} Run mino exec --session ${args.sessionId} --acknowledge first.`, EXIT.unknownResults);
    if (error instanceof CompactionError || error instanceof ModelError) return fail(error.message, EXIT.failed);
    throw error;
  } finally {
    await conversation.close();
    await setup.close();
  }
}
