// The model service key may come in the environment Mino starts with
// (OPENAI_API_KEY). A command Mino runs never gets it (tools/bash.ts), but left
// where it is, the key stays readable in two places: in process.env, which
// every child Node starts inherits, and in /proc/<pid>/environ, which shows the
// block the process was started with to any process of the same user, such as
// a command run outside the sandbox. So, first thing at start-up, before
// anything can start a child, Mino takes the key out: it keeps a copy for the
// model client, deletes it from process.env (unsetenv, so no child inherits
// it) and erases its bytes from the start-up block.
//
// Erased, not re-executed: deleting a variable does not touch the start-up
// block (the kernel shows the bytes between env_start and env_end, fields 50
// and 51 of /proc/self/stat, whatever the C library's environ now points at),
// and starting again without the key would cost the CLI a second start-up and
// cannot be done to Electron's main process, whose Chromium helpers are
// already running. The block lies in the process's own stack, which Linux lets
// the process rewrite through /proc/self/mem. Other systems show the start-up
// environment too (macOS to the same user, Windows through the process block)
// but offer Node no way to rewrite it: there the key stays in that block, and
// the caller logs so. Nothing here ever throws: at worst the key stays where
// it was, as it did before.
import * as fs from 'node:fs';
import { errorText } from '../log/log';

/** The variables only Mino itself may read: the model service key. */
export const PROCESS_SECRETS = ['OPENAI_API_KEY'] as const;

export interface WithheldEnvironment {
  /**
   * A copy of the environment as Mino started, the secrets still in it: what
   * the model settings are read from. Never the environment of a child.
   */
  env: NodeJS.ProcessEnv;
  /** Why a secret's bytes stay in the start-up block (for the log); empty when none do. */
  leftBehind: string[];
}

export interface WithholdOptions {
  names?: readonly string[];
  /** The live environment (default process.env): the secrets are deleted from it. */
  env?: NodeJS.ProcessEnv;
  /** Where this process's /proc entry is (default /proc/self); for tests. */
  procSelf?: string;
  platform?: NodeJS.Platform;
}

/**
 * Takes the secrets out of this process's environment and returns a copy that
 * still holds them. Call it once, before any child process starts.
 */
export function withholdSecretsFromProcess(options: WithholdOptions = {}): WithheldEnvironment {
  const names = options.names ?? PROCESS_SECRETS;
  const live = options.env ?? process.env;
  const copy: NodeJS.ProcessEnv = { ...live };
  const present = names.filter((name) => live[name] !== undefined);
  for (const name of present) {
    // Set by its exact name too: on Windows the live environment ignores case, a copy does not.
    copy[name] = live[name];
    delete live[name];
  }
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    const leftBehind = present.map(
      (name) => `${name} stays in the environment block Mino started with, where a process of this user can read it: Mino has no way to erase it there on ${platform}.`,
    );
    return { env: copy, leftBehind };
  }
  let problem: EraseProblem | null;
  try {
    problem = eraseStartupEntries(names, options.procSelf ?? '/proc/self');
  } catch (error) {
    // Each step catches its own failures; this is for the one nobody foresaw. Start-up goes on either way.
    problem = { kind: 'erase', text: `${present.join(', ') || names.join(', ')} may still be in the environment block Mino started with: ${errorText(error)}` };
  }
  if (problem === null) return { env: copy, leftBehind: [] };
  // A block that cannot even be read (no /proc) matters only when a secret was there to erase.
  const matters = present.length > 0 || problem.kind === 'erase';
  return { env: copy, leftBehind: matters ? [problem.text] : [] };
}

/** Why a secret may still be in the start-up block: it could not be read at all, or it held one that could not be erased. */
interface EraseProblem {
  kind: 'read' | 'erase';
  text: string;
}

/**
 * Overwrites with zero bytes every `NAME=value` entry of the start-up
 * environment block whose name is one of `names`. Null when none is left (or
 * there was none); else what went wrong, for the log.
 */
function eraseStartupEntries(names: readonly string[], procSelf: string): EraseProblem | null {
  const before = readBlock(procSelf);
  if (typeof before === 'string') return { kind: 'read', text: `Mino could not check the environment block it started with for ${names.join(', ')}: ${before}.` };
  const entries = entriesNamed(before, names);
  if (entries.length === 0) return null;
  const what = [...new Set(entries.map((entry) => entry.name))].join(', ');
  const notErased = (why: string): EraseProblem => ({
    kind: 'erase',
    text: `${what} could not be erased from the environment block Mino started with (${why}); a process of this user can read it there.`,
  });
  const start = environmentStart(procSelf);
  if (typeof start === 'string') return notErased(start);
  let fd: number | undefined;
  try {
    fd = fs.openSync(`${procSelf}/mem`, 'r+');
    for (const entry of entries) {
      const written = fs.writeSync(fd, Buffer.alloc(entry.length), 0, entry.length, start + entry.offset);
      if (written !== entry.length) throw new Error(`${written} of ${entry.length} bytes written`);
    }
  } catch (error) {
    return notErased(`${procSelf}/mem: ${errorText(error)}`);
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
  // What the kernel now shows to others is the proof.
  const after = readBlock(procSelf);
  if (typeof after === 'string') return notErased(`it was overwritten, but the block could not be read again to check: ${after}`);
  return entriesNamed(after, names).length === 0 ? null : notErased('it was still there after it was overwritten');
}

interface Entry {
  name: string;
  offset: number;
  length: number;
}

/** The entries of a NUL-separated environment block named one of `names`: where each starts and its length (NUL excluded). */
function entriesNamed(block: Buffer, names: readonly string[]): Entry[] {
  const prefixes = names.map((name) => ({ name, prefix: Buffer.from(`${name}=`) }));
  const found: Entry[] = [];
  for (let offset = 0; offset < block.length; ) {
    const nul = block.indexOf(0, offset);
    const end = nul === -1 ? block.length : nul;
    const entry = block.subarray(offset, end);
    const named = prefixes.find(({ prefix }) => entry.length >= prefix.length && entry.subarray(0, prefix.length).equals(prefix));
    if (named) found.push({ name: named.name, offset, length: end - offset });
    offset = end + 1;
  }
  return found;
}

/** The start-up environment block as the kernel shows it to others, or why it cannot be read. */
function readBlock(procSelf: string): Buffer | string {
  try {
    return fs.readFileSync(`${procSelf}/environ`);
  } catch (error) {
    return `${procSelf}/environ could not be read (${errorText(error)})`;
  }
}

/** env_start, field 50 of /proc/self/stat: the block's address, which is its offset in /proc/self/mem. */
function environmentStart(procSelf: string): number | string {
  let text: string;
  try {
    text = fs.readFileSync(`${procSelf}/stat`, 'utf8');
  } catch (error) {
    return `${procSelf}/stat could not be read (${errorText(error)})`;
  }
  // The command name (field 2) sits in parentheses and may itself hold spaces or parentheses: count after the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(' ');
  // fields[0] is field 3, so field n is fields[n - 3].
  const start = Number(fields[50 - 3]);
  return Number.isSafeInteger(start) && start > 0 ? start : `${procSelf}/stat does not give the environment's address (a kernel older than Linux 3.5?)`;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // ignore: nothing was left to write through it, and a failed close of /proc/self/mem loses nothing
  }
}
