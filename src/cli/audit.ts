// `mino audit`: the decision ledger of one project (core/rules/ledger.ts),
// oldest first, each decision with what decided it.
import * as path from 'node:path';
import { checkProjectDir } from '../main/core/projects/checkProject';
import { readLedger } from '../main/core/rules/ledger';
import { ledgerByText, type LedgerEntry } from '../shared/ledger';
import { UsageError } from './args';
import { escapedIo, EXIT, failWith, inMinoHome, type CommandIo } from './commandSetup';
import { jsonLine, terminalOutput } from './terminalText';

export const AUDIT_USAGE = `  mino audit [--project DIR] [--session ID] [--json]

audit lists every decision on a tool call in the project in DIR (default: the current directory), oldest first,
with what decided it: a protected path, your rule, the mode, or your answer to an ask.`;

export interface AuditArgs {
  dir?: string;
  sessionId?: string;
  json: boolean;
}

export function parseAuditArgs(argv: string[]): AuditArgs {
  const args: AuditArgs = { json: false };
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = argv[index].split(/=(.*)/su, 2);
    const value = () => {
      const given = inline ?? argv[++index];
      if (given === undefined || given === '') throw new UsageError(`${flag} takes a value.`);
      return given;
    };
    if (flag === '--json' && inline === undefined) args.json = true;
    else if (flag === '--project') args.dir = value();
    else if (flag === '--session') args.sessionId = value();
    else throw new UsageError(`mino audit does not take ${argv[index]}.`);
  }
  return args;
}

export async function runAudit(args: AuditArgs, rawIo: CommandIo): Promise<number> {
  const io = escapedIo(rawIo);
  const stdout = args.json ? rawIo.stdout : terminalOutput(rawIo.stdout);
  const fail = failWith(io);
  return inMinoHome(io, fail, async (homeDir) => {
    let dir: string;
    try {
      dir = path.resolve(process.cwd(), args.dir ?? '.');
    } catch {
      // ignore: the current directory is gone; the person is told what to do instead
      return fail('The current directory no longer exists. Change to your project folder, or give --project with a full path.', EXIT.usage);
    }
    const project = await checkProjectDir(dir, homeDir);
    if (!project.ok) return fail(project.reason, EXIT.usage);
    const { entries, problems } = await readLedger(homeDir, project.projectDir);
    for (const problem of problems) io.stderr.write(`mino: ${problem}\n`);
    const shown = entries.filter((entry) => args.sessionId === undefined || entry.session === args.sessionId);
    if (args.json) for (const entry of shown) stdout.write(`${jsonLine({ type: 'decision', ...entry })}\n`);
    else stdout.write(shown.length === 0 ? `No decisions are recorded for ${project.projectDir}${args.sessionId ? ` in session ${args.sessionId}` : ''}.\n` : `${shown.map(entryLine).join('\n')}\n`);
    return EXIT.completed;
  });
}

function entryLine(entry: LedgerEntry): string {
  const target = entry.target === undefined ? '' : ` ${JSON.stringify(entry.target)}`;
  return `${entry.at}  ${entry.session.slice(0, 8)}  ${entry.tool}${target}: ${entry.decision}, ${ledgerByText(entry.by)}`;
}
