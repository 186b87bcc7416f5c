// The `mino` command: `exec` runs a turn, `compact` compacts a saved session; `changes`, `undo` and `redo` review
// and take back file changes; `rules` keeps the person's rules, `audit` shows the ledger of decisions.
import { withholdSecretsFromProcess } from '../main/core/config/environmentSecret';
import { parseCompactArgs, parseExecArgs, UsageError, USAGE } from './args';
import { AUDIT_USAGE, parseAuditArgs, runAudit } from './audit';
import { CHANGES_USAGE, parseChangesArgs, runChanges } from './changes';
import { runCompact } from './compact';
import { EXIT } from './commandSetup';
import { runExec } from './exec';
import { parseRulesArgs, runRules, RULES_USAGE } from './rules';
import { terminalText } from './terminalText';

// Before anything can start a child: the model service key leaves this process's environment, and its
// start-up block, where a command run outside the sandbox could read it (environmentSecret.ts). The
// commands read the settings from the copy, which still holds it.
const withheld = withholdSecretsFromProcess();
const startIo = { env: withheld.env, secretsLeftBehind: withheld.leftBehind };

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n${CHANGES_USAGE}\n${RULES_USAGE}\n${AUDIT_USAGE}\n`);
    return command === undefined ? EXIT.usage : EXIT.completed;
  }
  if (command === 'changes' || command === 'undo' || command === 'redo') {
    let args;
    try {
      args = parseChangesArgs(command, rest);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(terminalText(`mino: ${error.message}\n\n${CHANGES_USAGE}\n`));
      return EXIT.usage;
    }
    return runChanges(args, {
      stdout: { write: (text) => process.stdout.write(text) },
      stderr: { write: (text) => process.stderr.write(text) },
      ...startIo,
    });
  }
  if (command === 'rules' || command === 'audit') return runRulesOrAudit(command, rest);
  if (command !== 'exec' && command !== 'compact') {
    process.stderr.write(terminalText(`mino: unknown command "${command}".\n\n${USAGE}\n`));
    return EXIT.usage;
  }
  const io = {
    stdout: { write: (text: string) => process.stdout.write(text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    ...startIo,
  };
  try {
    return command === 'exec' ? await runExec(parseExecArgs(rest), io) : await runCompact(parseCompactArgs(rest), io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(terminalText(`mino: ${error.message}\n\n${USAGE}\n`));
    return EXIT.usage;
  }
}

async function runRulesOrAudit(command: 'rules' | 'audit', rest: string[]): Promise<number> {
  const usage = command === 'rules' ? RULES_USAGE : AUDIT_USAGE;
  const io = {
    stdout: { write: (text: string) => process.stdout.write(text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    ...startIo,
  };
  try {
    return command === 'rules' ? await runRules(parseRulesArgs(rest), io) : await runAudit(parseAuditArgs(rest), io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(terminalText(`mino: ${error.message}\n\n${usage}\n`));
    return EXIT.usage;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(terminalText(`mino: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`));
    process.exitCode = EXIT.failed;
  },
);
