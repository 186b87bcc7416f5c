// Risk hints for a bash confirmation: a few words under the command when it
// sends data out, deletes recursively, rewrites a remote's history, changes
// permissions of a whole tree, or runs a script fetched from the network.
// Hints only, for the person reading the confirmation: the program's decision
// (allow / ask / deny) never depends on them, and a command without a hint is
// not thereby safe. Pure and shared, so the desktop dialog and `mino exec`
// say the same.
//
// The command is read the way a shell splits it (shellWords.ts): quoted text
// is one word, so `echo "rm -rf build"` gets no hint (it only prints); text
// the shell will run does: command substitutions `$(…)`/`…`/`<(…)`, the
// string of `sh -c`/`eval`, `find -exec`, and commands after wrappers such as
// `sudo`, `env`, `xargs`.
// This is a reading, not a shell: a command built at run time (a variable
// holding "rm", an alias) is beyond it.

import type { Confirmation } from './domain';
import { firstProgram, parse, programName, unwrap } from './shellWords';

export type BashRiskKind = 'sends_data' | 'runs_remote_script' | 'deletes' | 'force_push' | 'recursive_permissions';

export interface BashRiskHint {
  kind: BashRiskKind;
  message: string;
}

/** Nested commands deeper than this are not read (a hint is a courtesy, not a parser's promise). */
const MAX_DEPTH = 4;
/** Longer commands are read up to here. */
const MAX_CHARS = 20_000;

export function bashRiskHints(command: string): BashRiskHint[] {
  const hints = new Map<string, BashRiskHint>();
  analyze(command.slice(0, MAX_CHARS), 0, (hint) => hints.set(hint.message, hint));
  return [...hints.values()];
}

/** The hints for a confirmation: a bash call's command; none for any other tool. */
export function confirmationRiskHints(confirmation: Pick<Confirmation, 'tool' | 'fields'>): BashRiskHint[] {
  if (confirmation.tool !== 'bash') return [];
  const command = confirmation.fields.find((field) => field.label === 'Command');
  return command ? bashRiskHints(command.value) : [];
}

/** What a front end says above the hints, so both say it the same way. */
export const RISK_HINTS_NOTE = 'Hints only: they do not change what Mino decides, and a command without one is not thereby safe.';

function analyze(source: string, depth: number, add: (hint: BashRiskHint) => void): void {
  if (depth > MAX_DEPTH) return;
  for (const pipeline of parse(source).pipelines) {
    let fetcher: string | null = null;
    for (const command of pipeline) {
      for (const nested of command.nested) analyze(nested, depth + 1, add);
      const words = unwrap(command.words);
      const name = programName(words[0]);
      if (name === null) continue;
      const args = words.slice(1);
      checkCommand(name, args, depth, add);
      // `curl … | sh`: a later stage of the same pipeline is a shell reading what was fetched.
      if (fetcher && SHELLS.has(name) && !args.some((arg) => !arg.startsWith('-'))) {
        add({ kind: 'runs_remote_script', message: `Runs a script downloaded from the network (${fetcher} … | ${name}): what runs is whatever the server sends.` });
      }
      if (FETCHERS.has(name)) fetcher = name;
      // `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget …)"`, `source <(curl …)`.
      if (SHELLS.has(name) || SCRIPT_RUNNERS.has(name)) {
        const fetched = command.nested.map((text) => firstProgram(text)).find((program) => program !== null && FETCHERS.has(program));
        if (fetched) add({ kind: 'runs_remote_script', message: `Runs a script downloaded from the network (${name} with ${fetched}): what runs is whatever the server sends.` });
      }
    }
  }
}

const FETCHERS = new Set(['curl', 'wget']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
/** Builtins that run their argument as shell code. */
const SCRIPT_RUNNERS = new Set(['eval', 'source', '.']);

function checkCommand(name: string, args: string[], depth: number, add: (hint: BashRiskHint) => void): void {
  switch (name) {
    case 'curl': {
      const option = curlDataOption(args);
      if (option) add({ kind: 'sends_data', message: `curl ${option} sends data to a server: check what is sent and where it goes.` });
      return;
    }
    case 'wget': {
      const option = args.find((arg) => /^--(post|body)-(data|file)(=|$)/.test(arg));
      if (option) add({ kind: 'sends_data', message: `wget ${option.split('=')[0]} sends data to a server: check what is sent and where it goes.` });
      return;
    }
    case 'rm':
      if (hasOption(args, { short: 'rR', long: ['--recursive'] })) {
        add({ kind: 'deletes', message: 'rm -r deletes folders and everything in them; deleted files do not go to a trash.' });
      }
      return;
    case 'find': {
      if (args.includes('-delete')) add({ kind: 'deletes', message: 'find -delete deletes every file it matches.' });
      // `-exec rm -rf {} +`: the words up to `;` or `+` are a command find runs.
      args.forEach((arg, index) => {
        if (arg !== '-exec' && arg !== '-execdir' && arg !== '-ok' && arg !== '-okdir') return;
        const end = args.findIndex((word, i) => i > index && (word === ';' || word === '+'));
        const inner = args.slice(index + 1, end === -1 ? undefined : end);
        const innerName = programName(inner[0]);
        if (innerName) checkCommand(innerName, inner.slice(1), depth, add);
      });
      return;
    }
    case 'git':
      checkGit(args, add);
      return;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      if (hasOption(args, { short: 'R', long: ['--recursive'] })) {
        add({ kind: 'recursive_permissions', message: `${name} -R changes every file and folder below the ones named.` });
      }
      return;
    default:
      if ((SHELLS.has(name) || name === 'eval') && depth < MAX_DEPTH) {
        // The string of `sh -c '…'` and the words of `eval` are commands too.
        const code = name === 'eval' ? args.join(' ') : shellCommandString(args);
        if (code !== null) analyze(code, depth + 1, add);
      }
  }
}

/** curl's options that send a body or upload a file: the long name or the short letter as written. */
function curlDataOption(args: string[]): string | null {
  for (const arg of args) {
    if (arg === '--') return null;
    if (/^--(data(-[a-z]+)?|form(-string)?|upload-file|json)(=|$)/.test(arg)) return arg.split('=')[0] ?? arg;
    if (/^-[A-Za-z0-9#:]+$/.test(arg)) {
      // A cluster of short options (`-sSd`); a letter that takes a value ends it, the rest being the value.
      for (const letter of arg.slice(1)) {
        if ('dFT'.includes(letter)) return `-${letter}`;
        if (CURL_SHORT_WITH_VALUE.includes(letter)) break;
      }
    }
  }
  return null;
}
/** curl's short options that take a value (so what follows them in a cluster is that value). */
const CURL_SHORT_WITH_VALUE = 'AbcCdDeEFHKmoPQrTtuUwxXyYz';

function checkGit(args: string[], add: (hint: BashRiskHint) => void): void {
  // Global options come before the subcommand; some take a value.
  let index = 0;
  while (index < args.length && args[index]!.startsWith('-')) {
    index += ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path'].includes(args[index]!) ? 2 : 1;
  }
  const subcommand = args[index];
  const rest = args.slice(index + 1);
  if (subcommand === 'push') {
    const forced = rest.some((arg) => /^--force(-with-lease(=.*)?|-if-includes)?$/.test(arg) || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(arg) || (arg.startsWith('+') && arg.length > 1));
    if (forced) add({ kind: 'force_push', message: 'git push --force replaces the branch on the remote: commits others pushed there can be lost.' });
    const deleting = rest.some((arg) => arg === '--delete' || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(arg) || /^:[^:]/.test(arg));
    if (deleting) add({ kind: 'deletes', message: 'git push --delete deletes branches or tags on the remote.' });
  } else if (subcommand === 'clean' && hasOption(rest, { short: 'f', long: ['--force'] })) {
    add({ kind: 'deletes', message: 'git clean -f deletes files git does not track; git cannot bring them back.' });
  }
}

/** Whether `args` (before a `--`) hold a long option or a short cluster with one of the letters. */
function hasOption(args: string[], options: { short: string; long: string[] }): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (options.long.includes(arg)) return true;
    if (/^-[A-Za-z]+$/.test(arg) && [...arg.slice(1)].some((letter) => options.short.includes(letter))) return true;
  }
  return false;
}

/** The code of `sh -c CODE` (options may come first, as in `bash -ec`), or null. */
function shellCommandString(args: string[]): string | null {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') return null;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) return args[i + 1] ?? null;
  }
  return null;
}
