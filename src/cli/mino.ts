// The `mino` command: `exec` runs a turn, `compact` compacts a saved session; `changes`, `undo` and `redo` review
// and take back file changes; `rules` keeps the person's rules, `audit` shows the ledger of decisions; `eval` runs
// declared cases and scores them. One table says, per subcommand, its names and where its code is: its usage
// text, how its arguments are parsed and how it runs. A mistake in the arguments is said with that usage, the same
// way for every one. Only the subcommand typed is loaded (a chunk of the bundle each), so `mino exec` starts
// without reading the evaluation harness.
// First: it sets how zod parses before any module builds a schema.
import './zodSetup';
import { withholdSecretsFromProcess } from '../main/core/config/environmentSecret';
import { installPackageFetch } from '../main/core/model/environmentFetch';
import { UsageError, USAGE } from './args';
import { EXIT, type CommandIo } from './commandSetup';
import { terminalText } from './terminalText';

// Before anything can start a child: the model service key leaves this process's environment, and its
// start-up block, where a command run outside the sandbox could read it (environmentSecret.ts). The
// commands read the settings from the copy, which still holds it.
const withheld = withholdSecretsFromProcess();
const startIo = { env: withheld.env, secretsLeftBehind: withheld.leftBehind };

interface SubcommandCode {
  /** Said after an argument mistake, and (once per text) by `mino help`. */
  usage: string;
  /** Parses the arguments (throwing UsageError) and runs; `name` is the one typed. */
  run(name: string, argv: string[], io: CommandIo): Promise<number>;
}

interface Subcommand {
  names: readonly string[];
  load(): Promise<SubcommandCode>;
  /** It may ask a model service: the `undici` package's fetch is installed first (environmentFetch.ts). */
  asksModels?: true;
}

function code<A>(usage: string, parse: (argv: string[], name: string) => A, run: (args: A, io: CommandIo) => Promise<number>): SubcommandCode {
  return { usage, run: async (name, argv, io) => run(parse(argv, name), io) };
}

const SUBCOMMANDS: readonly Subcommand[] = [
  { names: ['exec'], asksModels: true, load: async () => code(USAGE, (await import('./args')).parseExecArgs, (await import('./exec')).runExec) },
  {
    names: ['compact'],
    asksModels: true,
    load: async () => code(USAGE, (await import('./args')).parseCompactArgs, (await import('./compact')).runCompact),
  },
  {
    names: ['changes', 'undo', 'redo'],
    load: async () => {
      const { CHANGES_USAGE, parseChangesArgs, runChanges } = await import('./changes');
      return code(CHANGES_USAGE, (argv, name) => parseChangesArgs(name as 'changes' | 'undo' | 'redo', argv), runChanges);
    },
  },
  {
    names: ['rules'],
    load: async () => {
      const { parseRulesArgs, runRules, RULES_USAGE } = await import('./rules');
      return code(RULES_USAGE, parseRulesArgs, runRules);
    },
  },
  {
    names: ['audit'],
    load: async () => {
      const { AUDIT_USAGE, parseAuditArgs, runAudit } = await import('./audit');
      return code(AUDIT_USAGE, parseAuditArgs, runAudit);
    },
  },
  {
    names: ['eval'],
    asksModels: true,
    load: async () => {
      const { EVAL_USAGE, parseEvalArgs, runEval } = await import('./eval');
      return code(EVAL_USAGE, parseEvalArgs, runEval);
    },
  },
];

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const loaded = await Promise.all(SUBCOMMANDS.map((entry) => entry.load()));
    const usages = [...new Set(loaded.map((entry) => entry.usage))];
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
  // Before the subcommand's code loads, so nothing of it can touch a fetch global first.
  if (entry.asksModels) await installPackageFetch();
  const subcommand = await entry.load();
  try {
    return await subcommand.run(command, rest, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(terminalText(`mino: ${error.message}\n\n${subcommand.usage}\n`));
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
