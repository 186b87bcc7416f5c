// Reading one shell word from the parse tree (commandParser.ts) as the shell
// would pass it: quotes and escapes removed. A word is "literal" when its text
// is exactly what the program receives; anything the shell would expand (a
// variable, a glob, a brace list, `~`, a command substitution) makes it not
// literal, and its text is then its source text, kept only to be shown.
// Substitutions inside a word run commands: they are handed to the walker so
// that those commands become parts too.
import type { Node } from 'web-tree-sitter';

/** Thrown while walking a command that must ask; commandParts turns it into `ok: false`. */
export class Unjudgeable extends Error {}

export interface ReadWord {
  text: string;
  literal: boolean;
}

/** What reading a word needs from the walker: a way to judge the commands inside `$( )`, `<( )` and backticks. */
export interface WordContext {
  statements(node: Node): void;
}

const WORD_KINDS = new Set([
  'word', 'number', 'raw_string', 'ansi_c_string', 'string', 'translated_string', 'concatenation', 'simple_expansion',
  'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'brace_expression',
  'extglob_pattern', 'array', 'regex',
]);

export function isWordKind(type: string): boolean {
  return WORD_KINDS.has(type);
}

export function readWord(node: Node, context: WordContext): ReadWord {
  const source = { text: node.text, literal: false };
  // find's `{}` (the parser may split it in two) is not a brace expansion: bash passes it as is.
  if (node.text === '{}') return { text: '{}', literal: true };
  switch (node.type) {
    case 'word':
      return unquoted(node.text);
    case 'number':
      return { text: node.text, literal: true };
    case 'raw_string':
      return { text: node.text.slice(1, -1), literal: true };
    case 'ansi_c_string': {
      // $'...' without escapes is plain text; with them, decoding is left undone and the word is not literal.
      const body = node.text.slice(2, -1);
      return body.includes('\\') ? source : { text: body, literal: true };
    }
    case 'string':
      return doubleQuoted(node, context);
    case 'concatenation':
      return joined(node.children.map((child) => readWord(child, context)));
    case 'expansion':
      checkParameterExpansion(node, context);
      return source;
    case 'command_substitution':
    case 'process_substitution':
      context.statements(node);
      return source;
    case 'arithmetic_expansion':
      checkArithmetic(node);
      return source;
    case 'translated_string':
    case 'array':
      for (const child of node.namedChildren) readWord(child, context);
      return source;
    case 'simple_expansion':
    case 'brace_expression':
    case 'extglob_pattern':
    case 'regex':
      return source;
    default:
      throw new Unjudgeable(`it uses shell syntax Mino does not judge (${node.type}: ${node.text})`);
  }
}

function joined(words: ReadWord[]): ReadWord {
  return { text: words.map((w) => w.text).join(''), literal: words.every((w) => w.literal) };
}

/** An unquoted word: backslash escapes removed; an unescaped glob, brace or `~` means the shell expands it. */
function unquoted(text: string): ReadWord {
  let out = '';
  let literal = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') {
      // A backslash before a newline joins lines; before anything else it quotes that character.
      if (text[i + 1] !== '\n' && i + 1 < text.length) out += text[i + 1];
      i++;
      continue;
    }
    if ('*?[~{$'.includes(char)) literal = false;
    out += char;
  }
  return { text: out, literal };
}

/** "…": the escapes that double quotes honour are removed; expansions make the word not literal. */
function doubleQuoted(node: Node, context: WordContext): ReadWord {
  const pieces: ReadWord[] = [];
  for (const child of node.children) {
    if (child.type === '"') continue;
    if (child.type === 'string_content') pieces.push({ text: child.text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c)), literal: true });
    else if (!child.isNamed) pieces.push({ text: child.text, literal: true });
    else pieces.push({ ...readWord(child, context), literal: false });
  }
  return joined(pieces);
}

/**
 * `${…}`: a plain or defaulted variable is fine (its words are read for
 * substitutions); forms that evaluate arithmetic or re-expand text can run
 * commands hidden in a variable's value (`${x:$i}`, `${!x}`, `${x@P}`,
 * `${a[$i]}`), so they make the call ask.
 */
function checkParameterExpansion(node: Node, context: WordContext): void {
  for (const child of node.children) {
    if (!child.isNamed) {
      if (child.type === '!' || child.type === '@' || child.type === ':') {
        throw new Unjudgeable(`the expansion ${node.text} can evaluate code hidden in a variable`);
      }
      continue;
    }
    if (child.type === 'variable_name' || child.type === 'special_variable_name') continue;
    if (child.type === 'subscript') checkSubscript(child);
    else readWord(child, context);
  }
}

/** An array index is arithmetic (it can run commands) unless it is a number, `@` or `*`. */
export function checkSubscript(node: Node): void {
  const index = node.childForFieldName('index');
  if (!index || !/^(\d+|@|\*)$/.test(index.text)) {
    throw new Unjudgeable(`the array index in ${node.text} is arithmetic, which can run commands hidden in a variable`);
  }
}

/** `$(( ))` with numbers only is harmless; a variable in it is evaluated as arithmetic, which can run commands. */
function checkArithmetic(node: Node): void {
  const harmless = new Set(['number', 'binary_expression', 'unary_expression', 'parenthesized_expression', 'ternary_expression']);
  const visit = (n: Node): void => {
    for (const child of n.namedChildren) {
      if (!harmless.has(child.type)) {
        throw new Unjudgeable(`the arithmetic ${node.text} uses variables, whose values can run commands`);
      }
      visit(child);
    }
  };
  visit(node);
}
