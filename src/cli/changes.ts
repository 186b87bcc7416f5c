// `mino changes` and `mino undo` / `mino redo`: review what each turn's file
// tools changed, and take a turn back, from the command line. Typing the
// command is the person's own act, so nothing is asked; the output says which
// files were restored and which were left alone, and why.
import { parseArgs } from 'node:util';
import type { Conversation } from '../main/core/agent/conversation';
import type { TurnSummary } from '../main/core/checkpoints/changeSummary';
import { NothingToReverseError, type ReversalAction, type ReversalReport } from '../main/core/checkpoints/reverseChanges';
import { checkProjectDir } from '../main/core/projects/checkProject';
import { SessionIdSchema, type SessionId } from '../shared/domain';
import { UNCOUNTED_ACTIONS } from '../shared/changes';
import { UsageError } from './args';
import { escapedIo, EXIT, failWith, inMinoHome, inSavedSession, type CommandIo, type Fail } from './commandSetup';
import { jsonLine, terminalOutput, type Output } from './terminalText';

export const CHANGES_USAGE = `  mino changes --session ID [--json]
  mino undo --session ID [--turn N] [--call CALL_ID] [--json]
  mino redo --session ID [--turn N] [--call CALL_ID] [--json]

changes lists what each turn's file tools and sandboxed commands changed, newest turn first, with a diff per file.
undo puts back the files a turn changed (default: the last turn with changes; --call: one call's);
redo puts back what an undo took away. A file changed since is left as it is and reported.
Exit codes: 0 every file restored, 1 some file left alone (or nothing to do), 2 usage or configuration error.`;

export interface ChangesArgs {
  command: 'changes' | ReversalAction;
  sessionId: SessionId;
  turn?: number;
  callId?: string;
  json: boolean;
}

export function parseChangesArgs(command: ChangesArgs['command'], argv: string[]): ChangesArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        session: { type: 'string' },
        turn: { type: 'string' },
        call: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.session === undefined) throw new UsageError(`mino ${command} needs --session ID (the id mino exec prints).`);
  const id = SessionIdSchema.safeParse(values.session);
  if (!id.success) throw new UsageError(`"${values.session}" is not a session id: a session id is 32 lowercase hex characters.`);
  if (command === 'changes' && (values.turn !== undefined || values.call !== undefined)) throw new UsageError('mino changes takes no --turn or --call.');
  let turn: number | undefined;
  if (values.turn !== undefined) {
    turn = Number(values.turn);
    if (!Number.isSafeInteger(turn) || turn < 1) throw new UsageError(`--turn takes a turn number (1 for the first question), not "${values.turn}".`);
  }
  return { command, sessionId: id.data, ...(turn !== undefined ? { turn } : {}), ...(values.call !== undefined ? { callId: values.call } : {}), json: values.json };
}

export async function runChanges(args: ChangesArgs, rawIo: CommandIo): Promise<number> {
  const stdout = args.json ? rawIo.stdout : terminalOutput(rawIo.stdout);
  const io = escapedIo(rawIo);
  const fail = failWith(io);
  return inMinoHome(io, fail, (homeDir) =>
    inSavedSession(homeDir, io, fail, args.sessionId, async (conversation) => {
      const project = await checkProjectDir(conversation.projectDir, homeDir);
      if (!project.ok) return fail(project.reason, EXIT.usage);
      return args.command === 'changes' ? listChanges(conversation, args.json, stdout) : reverseTurn(conversation, args.command, args, stdout, fail);
    }),
  );
}

async function listChanges(conversation: Conversation, json: boolean, stdout: Output): Promise<number> {
  const turns = await conversation.changes();
  if (json) for (const turn of turns) stdout.write(`${jsonLine({ type: 'turn_changes', ...turn })}\n`);
  else stdout.write(turns.length === 0 ? 'No turn of this session changed files.\n' : turns.map(changesText).join('\n'));
  return EXIT.completed;
}

/** Undo or redo; exit 0 when every file was restored, 1 when some file was left alone or there was nothing to do. */
async function reverseTurn(conversation: Conversation, action: ReversalAction, args: ChangesArgs, stdout: Output, fail: Fail): Promise<number> {
  let report: ReversalReport;
  try {
    report = await conversation.reverse(action, { turn: args.turn, callId: args.callId });
  } catch (error) {
    if (error instanceof NothingToReverseError) return fail(error.message, EXIT.failed);
    throw error;
  }
  stdout.write(args.json ? `${jsonLine({ type: 'reversal', ...report })}\n` : reversalText(report));
  const all = [...report.resumed, ...report.files];
  return all.every((file) => file.outcome === 'restored') ? EXIT.completed : EXIT.failed;
}

function changesText(turn: TurnSummary): string {
  const lines = [`Turn ${turn.turn}: ${JSON.stringify(turn.question)}`];
  for (const file of turn.files) {
    const counts = UNCOUNTED_ACTIONS.has(file.action) ? '' : ` (+${file.added} -${file.removed})`;
    const state = file.state === 'undone' ? ' [undone]' : '';
    lines.push(`  ${file.action} ${file.path}${counts}${state}`);
    if (file.notUndoable) lines.push(`    cannot be undone: ${file.notUndoable}`);
    if (file.diff) lines.push(...file.diff.trimEnd().split('\n').map((line) => `    ${line}`));
  }
  if (turn.untrackedNote) lines.push(`  ${turn.untrackedNote}`);
  return `${lines.join('\n')}\n`;
}

function reversalText(report: ReversalReport): string {
  const lines: string[] = [];
  const verb = report.action === 'undo' ? 'Undo' : 'Redo';
  const describe = (file: ReversalReport['files'][number]) => {
    if (file.outcome === 'restored') return [`  restored ${file.path}`];
    return [`  skipped ${file.path}: ${file.reason ?? 'left as it is'}`, ...(file.diff ? file.diff.trimEnd().split('\n').map((l) => `    ${l}`) : [])];
  };
  if (report.resumed.length > 0) lines.push('Finished an interrupted undo or redo first:', ...report.resumed.flatMap(describe));
  if (report.turn !== null) lines.push(`${verb} of turn ${report.turn}:`, ...report.files.flatMap(describe));
  return `${lines.join('\n')}\n`;
}
