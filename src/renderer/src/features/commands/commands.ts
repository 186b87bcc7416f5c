// The `/` commands of the message box: what each is, how the person's typed
// text parses into one, and what the command list offers while they type.
// Pure: text in, a command (or a clear error) out. Only the person's own typing
// comes here; the model's output is never parsed as a command.
import { PERMISSION_MODES, type PermissionMode } from '../../../../shared/domain';

export const COMMAND_NAMES = ['mode', 'model', 'compact', 'new', 'clear', 'resume', 'undo', 'changes', 'plan'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export interface CommandSpec {
  name: CommandName;
  /** What follows the name, for the list ("NAME"); absent: the command takes nothing. */
  argument?: string;
  description: string;
}

/** In the order the list shows them. */
export const COMMANDS: readonly CommandSpec[] = [
  { name: 'mode', argument: 'NAME', description: 'Show the permission mode, or change it (a looser one asks you first)' },
  { name: 'plan', description: 'Switch to the read-only planning mode' },
  { name: 'model', description: 'Choose the model this session uses' },
  { name: 'compact', description: 'Summarize the earlier turns so the model reads less' },
  { name: 'changes', description: 'Review what each turn changed in your files' },
  { name: 'undo', description: "Undo the latest turn's file changes (asks you first)" },
  { name: 'new', description: 'Start a new session' },
  { name: 'resume', description: 'Resume another session of this project' },
  { name: 'clear', description: 'Clear this session: the model forgets the conversation (asks you first)' },
];

/** A command the person typed, ready to run; `mode`: the name given to /mode, null when none was. */
export type Command = { name: 'mode'; mode: PermissionMode | null } | { name: Exclude<CommandName, 'mode'> };

export type Parsed =
  /** Not a command: the text is a message (it does not start with `/`, or its first word is a path such as /usr/bin). */
  | { kind: 'message' }
  | { kind: 'command'; command: Command }
  /** Starts like a command but is not a valid one: nothing runs and the text stays for the person to fix. */
  | { kind: 'error'; message: string };

const UNCHANGED_MODE = 'The permission mode did not change.';
const AS_MESSAGE = 'To send it as a message instead, put a space before the /.';

function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

function isMode(name: string): name is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(name);
}

/** Reads the box's text as a command; anything that does not start with `/` and a word is a message. */
export function parseCommand(text: string): Parsed {
  // A leading space is how a person sends a message that starts with `/`.
  if (!text.startsWith('/')) return { kind: 'message' };
  const [first = '', ...rest] = text.trim().split(/\s+/);
  const name = first.slice(1);
  // "/usr/bin is missing": a path, not a command.
  if (name.includes('/')) return { kind: 'message' };
  if (!isCommandName(name)) {
    return { kind: 'error', message: `There is no command ${first}. Type / to see the commands. ${AS_MESSAGE}` };
  }
  if (name === 'mode') return parseMode(rest);
  if (rest.length > 0) return { kind: 'error', message: `/${name} takes nothing after it; remove "${rest.join(' ')}". ${AS_MESSAGE}` };
  return { kind: 'command', command: { name } };
}

/** `/mode` alone shows the mode; `/mode NAME` changes it; an unknown name or more words is an error and the mode stays. */
function parseMode(words: string[]): Parsed {
  if (words.length === 0) return { kind: 'command', command: { name: 'mode', mode: null } };
  const [mode, ...extra] = words as [string, ...string[]];
  if (!isMode(mode)) return { kind: 'error', message: `There is no permission mode "${mode}": choose one of ${PERMISSION_MODES.join(', ')}. ${UNCHANGED_MODE}` };
  if (extra.length > 0) return { kind: 'error', message: `/mode takes one name; remove "${extra.join(' ')}". ${UNCHANGED_MODE}` };
  return { kind: 'command', command: { name: 'mode', mode } };
}

/** One entry of the command list. */
export interface CommandOption {
  /** Stable among the options shown (list keys, ids). */
  id: string;
  /** What the entry is called: a command ("/mode NAME") or a mode's name. */
  label: string;
  description: string;
  /** The box's text once the entry is picked. */
  completion: string;
  /** Picking it with Enter runs it at once; otherwise it is completed in the box for the person to go on typing. */
  runs: boolean;
}

/**
 * What the list offers for the box's text: the commands whose name starts
 * with what follows `/`, or, after `/mode ` and a letter or more, the modes
 * whose name starts with it. Null when the text is not a command being typed.
 * `describeMode` gives each mode's help (from the mode table).
 */
export function commandOptions(text: string, describeMode: (mode: PermissionMode) => string): CommandOption[] | null {
  const typingName = /^\/([a-z]*)$/.exec(text);
  if (typingName) {
    const prefix = typingName[1]!;
    return COMMANDS.filter((command) => command.name.startsWith(prefix)).map((command) => ({
      id: `command-${command.name}`,
      label: command.argument ? `/${command.name} ${command.argument}` : `/${command.name}`,
      description: command.description,
      completion: command.argument ? `/${command.name} ` : `/${command.name}`,
      runs: !command.argument,
    }));
  }
  const typingMode = /^\/mode +([a-z-]+)$/.exec(text);
  if (typingMode) {
    const prefix = typingMode[1]!;
    return PERMISSION_MODES.filter((mode) => mode.startsWith(prefix)).map((mode) => ({
      id: `mode-${mode}`,
      label: mode,
      description: describeMode(mode),
      completion: `/mode ${mode}`,
      runs: true,
    }));
  }
  return null;
}
