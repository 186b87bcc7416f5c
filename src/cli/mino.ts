// The `mino` command: `exec` runs a turn; `changes`, `undo` and `redo` review and take back file changes.
import { parseExecArgs, UsageError, USAGE } from './args';
import { CHANGES_USAGE, parseChangesArgs, runChanges } from './changes';
import { EXIT, runExec } from './exec';
import { terminalText } from './terminalText';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n${CHANGES_USAGE}\n`);
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
      env: process.env,
    });
  }
  if (command !== 'exec') {
    process.stderr.write(terminalText(`mino: unknown command "${command}".\n\n${USAGE}\n`));
    return EXIT.usage;
  }
  let args;
  try {
    args = parseExecArgs(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(terminalText(`mino: ${error.message}\n\n${USAGE}\n`));
    return EXIT.usage;
  }
  return runExec(args, {
    stdout: { write: (text) => process.stdout.write(text) },
    stderr: { write: (text) => process.stderr.write(text) },
    env: process.env,
  });
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
