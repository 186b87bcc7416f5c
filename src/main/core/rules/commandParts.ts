// A bash command split into the simple commands that would run, for rules to
// judge one by one: a call is allowed by rules only when every
// part is. The parser is tree-sitter's bash grammar (commandParser.ts says why
// that one); this file walks its tree. The walk knows a fixed list of node
// kinds; anything else, anything the parser could not read, a command name the
// shell would expand, code hidden in arithmetic, and writes outside the project
// make the reading `ok: false`: the call must ask.
//
// Async only because the parser's WebAssembly loads on first use; after that
// each reading is synchronous work of a millisecond or two.
//
// Decisions a rule writer should know:
// - Wrappers (`sudo`, `env`, `timeout`, `xargs`, `find -exec`, `bash -c`, `eval`
//   …) are parts themselves and so is what they run (commandWrappers.ts).
// - `NAME=value` before a command stays in the part's words (`CI=1 npm test`
//   is the part `CI=1 npm test`): a variable such as PATH or LD_PRELOAD changes
//   what runs, so a rule for `npm test` does not cover it.
// - Arguments may be expanded (`echo $HOME`); their source text is kept and
//   their index listed in `expanded`, and partMatchesPrefix never lets a rule's
//   word match an expanded word, whatever its text.
// - Redirections: output to a file outside the project (an absolute path other
//   than /dev/null, /dev/stdout, /dev/stderr or one under `projectRoot`, a
//   relative path escaping with `..`, or a target the shell expands such as `~`)
//   makes the reading ask. Reading from files is left to the sandbox.
// - Here-documents are data, except when fed to a shell (`bash <<EOF`): then
//   their text is read as commands. With an unquoted delimiter their `$( )`
//   run, so those are parts in every case.
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { bashParser } from './commandParser';
import { type InnerRun, innerRuns } from './commandWrappers';
import { checkSubscript, isWordKind, type ReadWord, readWord, Unjudgeable } from './commandWords';

export interface CommandPart {
  /** The simple command's words as the shell would pass them: quotes and escapes removed; literal text only. */
  words: string[];
  /** Indexes of words the shell would expand (`$X`, `*.ts`, `$(…)`): their entry in `words` is their source text. */
  expanded: number[];
}

export type CommandReading =
  /** Every simple command that would run, wherever it sits. */
  | { ok: true; parts: CommandPart[] }
  /** The call must ask; `reason` says why, for a person. */
  | { ok: false; reason: string };

export interface CommandPartsOptions {
  /** The project's real path: output redirected to an absolute path inside it is not "outside". */
  projectRoot?: string;
}

/** Deepest nesting of `bash -c`/`eval` strings read before giving up (and asking). */
const MAX_SCRIPT_DEPTH = 8;
const OUTPUT_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
const DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
/** Lower-case shell variables that change how later commands are found or read (upper-case names always ask). */
const SHELL_VARIABLES = new Set(['path', 'cdpath', 'fpath', 'module_path']);
/** Node kinds whose named children are statements and words, walked in order. */
const CONTAINERS = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'do_group', 'negated_command', 'if_statement',
  'elif_clause', 'else_clause', 'while_statement', 'for_statement', 'case_statement', 'case_item', 'function_definition',
  'variable_assignments',
]);
/** Node kinds inside `[ … ]` whose children are its words, in order. */
const TEST_EXPRESSIONS = new Set(['binary_expression', 'unary_expression', 'parenthesized_expression']);

/** Here-document or here-string text feeding a command's standard input; `script` is undefined when the shell expands it. */
interface Feed {
  script: string | undefined;
}

export async function commandParts(command: string, options: CommandPartsOptions = {}): Promise<CommandReading> {
  const parser = await bashParser();
  const walker: PartsWalker = new PartsWalker((script) => {
    const tree = parser.parse(script);
    if (!tree) throw new Unjudgeable('the shell parser could not read it');
    try {
      // tree-sitter recovers from errors; a tree with any ERROR or MISSING node is not what bash would run.
      if (tree.rootNode.hasError) throw new Unjudgeable('the shell parser could not read it (a syntax error, or syntax it does not know)');
      walker.statements(tree.rootNode);
    } finally {
      tree.delete();
    }
  }, options.projectRoot);
  try {
    walker.script(command);
    return { ok: true, parts: walker.parts };
  } catch (error) {
    if (error instanceof Unjudgeable) return { ok: false, reason: `Mino cannot judge this command by rules: ${error.message}.` };
    throw error;
  }
}

/** True when the part's leading words are exactly `prefix`, word by word (`npm test` matches `npm test --watch`, not `npm tests`). */
export function partMatchesPrefix(part: CommandPart, prefix: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > part.words.length) return false;
  return prefix.every((word, i) => part.words[i] === word && !part.expanded.includes(i));
}

class PartsWalker {
  readonly parts: CommandPart[] = [];
  private depth = 0;

  constructor(
    private readonly parseAndVisit: (script: string) => void,
    private readonly projectRoot: string | undefined,
  ) {}

  /** Reads a script (the command itself, or the string of `bash -c`, `eval` or a here-document fed to a shell). */
  script(text: string): void {
    if (this.depth >= MAX_SCRIPT_DEPTH) throw new Unjudgeable('it nests shell strings too deeply');
    // bash removes a backslash-newline before it splits words (`to\⏎uch` is `touch`); the
    // parser splits there instead. Between two words (after a space) both agree.
    if (/[^\s]\\\n[^\s]/.test(text)) throw new Unjudgeable('a backslash-newline joins two pieces of a word');
    this.depth++;
    try {
      this.parseAndVisit(text);
    } finally {
      this.depth--;
    }
  }

  statements(node: Node): void {
    for (const child of node.namedChildren) this.statement(child);
  }

  private statement(node: Node, feed?: Feed): void {
    if (node.type === 'comment' || node.type === 'variable_name') return;
    if (isWordKind(node.type)) {
      readWord(node, this);
      return;
    }
    switch (node.type) {
      case 'command':
        return this.command(node, feed);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node);
      case 'variable_assignment':
        this.bareAssignment(node);
        return;
      case 'test_command':
        return this.test(node);
      case 'redirected_statement':
        return this.redirected(node);
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        this.redirect(node);
        return;
    }
    if (node.type === 'compound_statement' && node.firstChild?.type === '((') {
      throw new Unjudgeable(`the arithmetic command ${node.text} can run commands hidden in a variable`);
    }
    if (!CONTAINERS.has(node.type)) throw new Unjudgeable(`it uses shell syntax Mino does not judge (${node.type}: ${node.text})`);
    for (const child of node.namedChildren) this.statement(child);
  }

  private redirected(node: Node): void {
    let feed: Feed | undefined;
    for (const redirect of node.childrenForFieldName('redirect')) feed = this.redirect(redirect) ?? feed;
    const body = node.childForFieldName('body');
    if (body) this.statement(body, feed);
  }

  /** One simple command: its words become a part, and so does anything it runs. */
  private command(node: Node, feed: Feed | undefined): void {
    const words: ReadWord[] = [];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') words.push(this.assignment(child));
      else if (child.type.endsWith('_redirect')) feed = this.redirect(child) ?? feed;
      else if (child.type === 'command_name') words.push(readWord(child.namedChildren[0], this));
      else words.push(readWord(child, this));
    }
    this.addPart(words, node.namedChildren.filter((c) => c.type === 'variable_assignment').length, feed);
  }

  /** `export A=1`, `local x`, `unset y`: the keyword is the part's first word. */
  private declaration(node: Node): void {
    const words: ReadWord[] = [{ text: node.firstChild?.text ?? '', literal: true }];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') words.push(this.assignment(child));
      else if (child.type === 'variable_name') words.push({ text: child.text, literal: true });
      else words.push(readWord(child, this));
    }
    this.addPart(words, 0, undefined);
  }

  /**
   * `NAME=value` alone sets a shell variable for the commands after it. The
   * shell's own variables (PATH decides which program a name runs) and the
   * environment's (upper case by convention, already exported ones reach every
   * later command) can change what a part runs, so setting one asks.
   */
  private bareAssignment(node: Node): void {
    const read = this.assignment(node);
    const name = node.childForFieldName('name')?.text ?? '';
    if (/^[A-Z_][A-Z0-9_]*$/.test(name) || SHELL_VARIABLES.has(name)) {
      throw new Unjudgeable(`${read.text} sets ${name}, which can change what the commands after it run`);
    }
  }

  /** `[ … ]` is the command `[` with its words; `[[ … ]]` evaluates arithmetic (it can run commands hidden in a variable). */
  private test(node: Node): void {
    if (node.firstChild?.type !== '[') throw new Unjudgeable(`it uses ${node.firstChild?.type ?? 'a test'}, which can evaluate code hidden in a variable`);
    const words: ReadWord[] = [];
    const visit = (n: Node): void => {
      for (const child of n.children) {
        if (!child.isNamed || child.type === 'test_operator') words.push({ text: child.text, literal: true });
        else if (TEST_EXPRESSIONS.has(child.type)) visit(child);
        else words.push(readWord(child, this));
      }
    };
    visit(node);
    this.addPart(words, 0, undefined);
  }

  private assignment(node: Node): ReadWord {
    const name = node.childForFieldName('name');
    if (name?.type === 'subscript') checkSubscript(name);
    const value = node.childForFieldName('value');
    const read = value ? readWord(value, this) : { text: '', literal: true };
    const operator = node.children.find((child) => !child.isNamed)?.type ?? '=';
    return { text: `${name?.text ?? ''}${operator}${read.text}`, literal: read.literal };
  }

  /**
   * Records `words` as a part and reads what it runs. The first `assigned`
   * words are the shell's own prefix assignments; words from a wrapper such as
   * `env A=1 cmd` that look like assignments are arguments the shell expands
   * and splits, so those must be literal.
   */
  private addPart(words: ReadWord[], assigned: number, feed: Feed | undefined): void {
    let program = assigned;
    while (program < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[program].text)) {
      if (!words[program].literal) throw new Unjudgeable(`${words[program].text} is expanded by the shell before the command runs`);
      program++;
    }
    if (program >= words.length) return;
    if (!words[program].literal) {
      throw new Unjudgeable(`the command name ${words[program].text} is expanded by the shell, so Mino cannot tell which program runs`);
    }
    this.parts.push({
      words: words.map((w) => w.text),
      expanded: words.flatMap((w, i) => (w.literal ? [] : [i])),
    });
    for (const run of innerRuns(words.slice(program))) this.inner(run, feed);
  }

  private inner(run: InnerRun, feed: Feed | undefined): void {
    if (run.kind === 'words') return this.addPart(run.words, 0, undefined);
    if (run.kind === 'script') return this.script(run.script);
    if (feed?.script === undefined) {
      throw new Unjudgeable('it runs a shell that reads commands from its input, which Mino cannot see (feed it a quoted here-document, or use -c)');
    }
    this.script(feed.script);
  }

  /** Checks a redirection; returns the text it feeds to standard input, if it is a here-document or here-string. */
  private redirect(node: Node): Feed | undefined {
    if (node.type === 'heredoc_redirect') return this.heredoc(node);
    if (node.type === 'herestring_redirect') {
      const word = readWord(node.namedChildren[node.namedChildren.length - 1], this);
      return { script: word.literal ? word.text : undefined };
    }
    if (node.type !== 'file_redirect') throw new Unjudgeable(`it uses a redirection Mino does not judge (${node.text})`);
    const operator = node.children.find((c) => !c.isNamed)?.type ?? '';
    for (const destination of node.childrenForFieldName('destination')) {
      const target = readWord(destination, this);
      if (OUTPUT_REDIRECTS.has(operator)) this.checkOutputTarget(operator, target);
    }
    return undefined;
  }

  private checkOutputTarget(operator: string, target: ReadWord): void {
    if (operator === '>&' && /^(\d+|-)$/.test(target.text)) return;
    if (!target.literal) throw new Unjudgeable(`it writes to ${target.text}, which the shell expands, so Mino cannot tell whether it is inside the project`);
    if (DEVICES.has(target.text)) return;
    const inside = path.posix.isAbsolute(target.text)
      ? this.projectRoot !== undefined && !path.posix.relative(this.projectRoot, target.text).startsWith('..')
      : !path.posix.normalize(target.text).startsWith('..');
    if (!inside) throw new Unjudgeable(`it writes to ${target.text}, outside the project`);
  }

  /** A here-document: `$( )` in an unquoted one run; its text is a script only if a shell reads it. */
  private heredoc(node: Node): Feed {
    const start = node.children.find((c) => c.type === 'heredoc_start')?.text ?? '';
    const body = node.children.find((c) => c.type === 'heredoc_body');
    for (const child of node.namedChildren) {
      if (child.type !== 'heredoc_start' && child.type !== 'heredoc_body' && child.type !== 'heredoc_end') this.statement(child);
    }
    if (!body) return { script: '' };
    if (/['"\\]/.test(start)) return { script: body.text };
    let expands = body.text.includes('\\');
    for (const child of body.namedChildren) {
      if (child.type === 'heredoc_content') continue;
      readWord(child, this);
      expands = true;
    }
    return { script: expands ? undefined : body.text };
  }
}
