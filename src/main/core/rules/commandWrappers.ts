// Commands that run other commands. A simple command such as `sudo npm test`,
// `xargs rm`, `find . -exec rm {} ;` or `bash -c 'npm test'` runs a second
// command, given as its words or as a script; this file finds it.
//
// Decision: the wrapper stays a part of its own (`sudo npm test` yields both
// `sudo npm test` and `npm test`), so a rule must cover both the wrapper and
// what it runs: allowing `npm test` never allows `sudo npm test`, and a deny
// rule for either still applies. Options are read from a list per wrapper; an
// option not on it makes the call ask, since guessing whether it takes a value
// could misplace where the wrapped command starts.
import { type ReadWord, Unjudgeable } from './commandWords';

/** What a simple command runs besides itself. */
export type InnerRun =
  | { kind: 'words'; words: ReadWord[] }
  | { kind: 'script'; script: string }
  /** A shell reading its commands from standard input: only a here-document or here-string can say what they are. */
  | { kind: 'stdin-script' };

interface WrapperOptions {
  /** Options followed by a value (`-u root`, `--user=root`, `-uroot`). */
  valued: string[];
  flags: string[];
  /** Operands between the options and the command (timeout's duration). */
  operands?: number;
}

const WRAPPERS: Record<string, WrapperOptions> = {
  sudo: {
    valued: ['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-D', '--chdir', '-r', '--role', '-t', '--type', '-U', '--other-user', '-T', '--command-timeout', '-R', '--chroot'],
    flags: ['-A', '--askpass', '-b', '--background', '-E', '--preserve-env', '-H', '--set-home', '-k', '--reset-timestamp', '-n', '--non-interactive', '-P', '--preserve-groups', '-S', '--stdin', '-B', '--bell', '-N', '--no-update'],
  },
  doas: { valued: ['-u', '-C'], flags: ['-n', '-L'] },
  env: { valued: ['-u', '--unset', '-C', '--chdir'], flags: ['-i', '--ignore-environment', '-0', '--null', '-v', '--debug', '-'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], flags: ['--preserve-status', '--foreground', '-v', '--verbose'], operands: 1 },
  nice: { valued: ['-n', '--adjustment'], flags: [] },
  nohup: { valued: [], flags: [] },
  command: { valued: [], flags: ['-p', '-v', '-V'] },
  builtin: { valued: [], flags: [] },
  exec: { valued: ['-a'], flags: ['-c', '-l'] },
  time: { valued: ['-o', '--output', '-f', '--format'], flags: ['-p', '-a', '--append', '-v', '--verbose', '-q', '--quiet', '--portability'] },
  stdbuf: { valued: ['-i', '--input', '-o', '--output', '-e', '--error'], flags: [] },
  setsid: { valued: [], flags: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'] },
  coproc: { valued: [], flags: [] },
  xargs: {
    valued: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-I', '-L', '--max-lines', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var'],
    flags: ['-0', '--null', '-r', '--no-run-if-empty', '-t', '--verbose', '-p', '--interactive', '-x', '--exit', '-o', '--open-tty', '-e', '-i', '-l'],
  },
};

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
/** Shell options that take the next word as their value. */
const SHELL_VALUED = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The program's name as a wrapper table knows it: `/usr/bin/sudo` is `sudo`. */
function programName(word: ReadWord): string {
  return word.text.slice(word.text.lastIndexOf('/') + 1);
}

/** What the simple command `words` (its first word is the program) runs besides itself. */
export function innerRuns(words: readonly ReadWord[]): InnerRun[] {
  const name = programName(words[0]);
  if (name === 'eval') return evalScript(words);
  if (SHELLS.has(name)) return shellRun(words);
  if (name === 'find') return findExec(words);
  const options = WRAPPERS[name];
  if (!options) return [];
  const start = skipOptions(words, options, name);
  requireLiteral(words.slice(0, start + 1), name);
  const inner = words.slice(start);
  if (name === 'env') return inner.length > 0 ? [{ kind: 'words', words: inner }] : [];
  // A wrapper with nothing to wrap runs nothing more, except xargs, which runs echo.
  if (inner.length === 0) return name === 'xargs' ? [{ kind: 'words', words: [{ text: 'echo', literal: true }] }] : [];
  return [{ kind: 'words', words: inner }];
}

/** The index of the first word after the wrapper's options and operands (env's NAME=VALUE words stay with the command). */
function skipOptions(words: readonly ReadWord[], options: WrapperOptions, name: string): number {
  let i = 1;
  for (; i < words.length; i++) {
    const text = words[i].text;
    const isOption = text.startsWith('-') && (text !== '-' || name === 'env');
    if (!isOption) break;
    if (text === '--') {
      i++;
      break;
    }
    if (name === 'env' && /^(-S|--split-string)/.test(text)) {
      throw new Unjudgeable('env -S splits a string into a command, which Mino does not read');
    }
    if (name === 'nice' && /^-\d+$/.test(text)) continue;
    i += optionWidth(text, options, name) - 1;
  }
  return i + (options.operands ?? 0);
}

/**
 * Words the shell expands can split into several words (`sudo $X` may be
 * `sudo -u root rm …`), so everything that decides where the wrapped command
 * starts, and the command's own name, must be literal text.
 */
function requireLiteral(words: readonly ReadWord[], what: string): void {
  const expanded = words.find((w) => !w.literal);
  if (expanded) {
    throw new Unjudgeable(`${expanded.text} is expanded by the shell, so Mino cannot tell what ${what} runs`);
  }
}

/** How many words an option takes up: 1, or 2 when its value is the next word. */
function optionWidth(text: string, options: WrapperOptions, name: string): number {
  const unknown = (): never => {
    throw new Unjudgeable(`Mino does not know the option ${text} of ${name}, so it cannot tell which command follows`);
  };
  if (text.startsWith('--')) {
    const [option, value] = text.split('=', 2) as [string, string | undefined];
    if (options.valued.includes(option)) return value === undefined ? 2 : 1;
    return options.flags.includes(option) ? 1 : unknown();
  }
  if (text === '-') return 1;
  for (let j = 1; j < text.length; j++) {
    const short = `-${text[j]}`;
    if (options.valued.includes(short)) return j === text.length - 1 ? 2 : 1;
    if (!options.flags.includes(short)) unknown();
  }
  return 1;
}

/** `eval a b`: the shell joins the words with spaces and runs the result. */
function evalScript(words: readonly ReadWord[]): InnerRun[] {
  const args = words.slice(1);
  if (args.some((w) => !w.literal)) throw new Unjudgeable('eval runs text that is not literal, so Mino cannot read what it runs');
  return args.length > 0 ? [{ kind: 'script', script: args.map((w) => w.text).join(' ') }] : [];
}

/** `bash -c SCRIPT`, `bash FILE` (the file is not read: the part itself is judged), or a shell reading standard input. */
function shellRun(words: readonly ReadWord[]): InnerRun[] {
  let command = false;
  // -s: commands come from standard input even when operands follow (they are $1, $2 …).
  let stdin = false;
  let i = 1;
  for (; i < words.length; i++) {
    const text = words[i].text;
    if (text === '--' || text === '-') {
      i++;
      break;
    }
    if (!/^[-+]/.test(text)) break;
    if (SHELL_VALUED.has(text)) i++;
    else if (!text.startsWith('--')) {
      command ||= text.slice(1).includes('c');
      stdin ||= text.slice(1).includes('s');
    }
  }
  const operand = words[i];
  requireLiteral(words.slice(0, i + 1), words[0].text);
  if (command) {
    if (!operand) throw new Unjudgeable(`${words[0].text} -c has no command string`);
    return [{ kind: 'script', script: operand.text }];
  }
  return operand && !stdin ? [] : [{ kind: 'stdin-script' }];
}

/** `find … -exec CMD … ;` (or `+`), as often as it appears. */
function findExec(words: readonly ReadWord[]): InnerRun[] {
  // Any expanded word could turn out to be `-exec`.
  requireLiteral(words, 'find');
  const runs: InnerRun[] = [];
  for (let i = 1; i < words.length; i++) {
    if (!FIND_EXEC.has(words[i].text)) continue;
    const end = words.findIndex((w, j) => j > i && (w.text === ';' || w.text === '+'));
    const inner = words.slice(i + 1, end === -1 ? words.length : end);
    if (inner.length === 0) throw new Unjudgeable(`find ${words[i].text} names no command`);
    runs.push({ kind: 'words', words: inner });
    if (end === -1) break;
    i = end;
  }
  return runs;
}
