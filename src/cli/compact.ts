// `mino compact --session ID`: summarize a saved session's earlier turns now,
// the same compaction Mino runs by itself near the context window.
import { CompactionError, UnacknowledgedResultsError } from '../main/core/agent/conversation';
import { ModelError } from '../main/core/model/types';
import type { CompactArgs } from './args';
import { escapedIo, EXIT, failWith, inMinoHome, inSavedSession, type CommandIo, type Fail } from './commandSetup';
import { compactionJson, compactionLine } from './printers';

export async function runCompact(args: CompactArgs, rawIo: CommandIo): Promise<number> {
  const io = escapedIo(rawIo);
  const fail = failWith(io);
  return inMinoHome(io, fail, (homeDir) => compactInHome(args, io, homeDir, fail));
}

async function compactInHome(args: CompactArgs, io: CommandIo, homeDir: string, fail: Fail): Promise<number> {
  return inSavedSession(homeDir, io, fail, args.sessionId, async (conversation) => {
    try {
      const event = await conversation.compact();
      if (args.json) io.stdout.write(`${JSON.stringify(compactionJson(event))}\n`);
      else io.stdout.write(`${compactionLine(event)}\n\nSummary:\n${event.summary}\n`);
      return EXIT.completed;
    } catch (error) {
      if (error instanceof UnacknowledgedResultsError) return fail(`${error.message} Run mino exec --session ${args.sessionId} --acknowledge first.`, EXIT.unknownResults);
      if (error instanceof CompactionError || error instanceof ModelError) return fail(error.message, EXIT.failed);
      throw error;
    }
  });
}
