// The `mino` command: `exec` runs a turn, `compact` compacts a saved session; `changes`, `undo` and `redo` review
// and take back file changes; `rules` keeps the person's rules, `audit` shows the ledger of decisions; `eval` runs
// declared cases and scores them. One table says, per subcommand, its names, its usage text, how its arguments
// are parsed and how it runs; a mistake in the arguments is said with that usage, the same way for every one.
import { withholdSecretsFromProcess } from '../main/core/config/environmentSecret';
import { parseCompactArgs, parseExecArgs, UsageError, USAGE } from './args';
import { AUDIT_USAGE, parseAuditArgs, runAudit } from './audit';
import { CHANGES_USAGE, parseChangesArgs, runChanges } from './changes';
import { runCompact } from './compact';
import { EXIT, type CommandIo } from './commandSetup';
import { EVAL_USAGE, parseEvalArgs, runEval } from './eval';
import { runExec } from './exec';
import { parseRulesArgs, runRules, RULES_USAGE } from './rules';
import { terminalText } from './terminalText';

// Before anything can start a child: the model service key leaves this process's environment, and its
// start-up block, where a command run outside the sandbox could read it (environmentSecret.ts). The
// commands read the settings from the copy, which still holds it.
const withheld = withholdSecretsFromProcess();
const startIo = { env: withheld.env, secretsLeftBehind: withheld.leftBehind };

interface Subcommand {
  names: readonly string[];
  /** Said after an argument mistake, and (once per text) by `mino help`. */
  usage: string;
  /** Parses the arguments (throwing UsageError) and runs; `name` is the one typed. */
  run(name: string, argv: string[], io: CommandIo): Promise<number>;
}

function subcommand<A>(names: readonly string[], usage: string, parse: (argv: string[], name: string) => A, run: (args: A, io: CommandIo) => Promise<number>): Subcommand {
  return { names, usage, run: async (name, argv, io) => run(parse(argv, name), io) };
}

const SUBCOMMANDS: readonly Subcommand[] = [
  subcommand(['exec'], USAGE, parseExecArgs, runExec),
  subcommand(['compact'], USAGE, parseCompactArgs, runCompact),
  subcommand(['changes', 'undo', 'redo'], CHANGES_USAGE, (argv, name) => parseChangesArgs(name as 'changes' | 'undo' | 'redo', argv), runChanges),
  subcommand(['rules'], RULES_USAGE, parseRulesArgs, runRules),
  subcommand(['audit'], AUDIT_USAGE, parseAuditArgs, runAudit),
  subcommand(['eval'], EVAL_USAGE, parseEvalArgs, runEval),
];

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const usages = [...new Set(SUBCOMMANDS.map((entry) => entry.usage))];
    process.stdout.write(`${usages.join('\n')}\n`);
    return command === undefined ? EXIT.usage : EXIT.completed;
  }
  const entry = SUBCOMMANDS.find((candidate) => candidate.names.includes(command));
  if (entry === undefined) {
    process.stderr.write(terminalText(`mino: unknown command "${command}".\n\n${USAGE}\n`));
    return EXIT.usage;
  }
  const io: CommandIo = {
    stdout: { write: (text: string) => process.stdout.write(text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    ...startIo,
  };
  try {
    return await entry.run(command, rest, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(terminalText(`mino: ${error.message}\n\n${entry.usage}\n`));
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
