// Shell text read the way a shell splits it, as far as risk hints need
// (bashRiskHints.ts): pipelines of simple commands, quotes and escapes
// removed from the words, command substitutions collected to be read in turn,
// and the command that actually runs found behind assignments, redirections,
// keywords and wrappers such as `sudo`, `env` and `xargs`. Lenient, and a
// reading only: a command built at run time is beyond it.

export interface SimpleCommand {
  words: string[];
  /** Text of the substitutions inside this command's words, which the shell runs first. */
  nested: string[];
}

export interface Parsed {
  /** Each pipeline is the commands joined by `|`. */
  pipelines: SimpleCommand[][];
}

/** Words that run the command after them, and how many values their own options take. */
const WRAPPERS: Record<string, ReadonlySet<string>> = {
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '-S', '--unset', '--chdir']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  time: new Set(['-f', '-o']),
  nice: new Set(['-n']),
  ionice: new Set(['-c', '-n', '-p']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  xargs: new Set(['-I', '-i', '-n', '-P', '-L', '-l', '-d', '-s', '-E', '-e', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--replace']),
  stdbuf: new Set(['-i', '-o', '-e']),
};
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '}', 'time']);

/** The words of the command that actually runs: assignments, redirections, keywords and wrappers removed. */
export function unwrap(input: string[]): string[] {
  let words = input.filter((word, index) => !isRedirection(word) && !(index > 0 && isRedirectionOperator(input[index - 1]!)));
  for (;;) {
    const first = words[0];
    if (first === undefined) return words;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first) || KEYWORDS.has(first)) {
      words = words.slice(1);
      continue;
    }
    const name = programName(first);
    const valued = name === null ? undefined : WRAPPERS[name];
    if (!valued) return words;
    let index = 1;
    while (index < words.length) {
      const word = words[index]!;
      if (word === '--') {
        index += 1;
        break;
      }
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) index += 1;
      else if (word.startsWith('-')) index += valued.has(word) ? 2 : 1;
      // timeout's duration comes before the command.
      else if (name === 'timeout' && /^\d/.test(word)) index += 1;
      else break;
    }
    words = words.slice(index);
  }
}

function isRedirectionOperator(word: string): boolean {
  return /^(\d*|&)(>>?|<<?<?|>&|<&|>\|)$/.test(word);
}

function isRedirection(word: string): boolean {
  return /^(\d*|&)(>>?|<<?<?|>&|<&|>\|)/.test(word);
}

/** The program a word names (`/usr/bin/rm` → `rm`), or null for a word that is not a plain name. */
export function programName(word: string | undefined): string | null {
  if (!word || word.includes('$(') || word.includes('`')) return null;
  const base = word.split('/').pop() ?? word;
  return base === '' ? null : base;
}

export function firstProgram(source: string): string | null {
  const command = parse(source).pipelines[0]?.[0];
  return command ? programName(unwrap(command.words)[0]) : null;
}

/**
 * Splits shell text into pipelines of simple commands, with quotes and
 * escapes removed from the words and the substitutions collected. Lenient:
 * an unclosed quote or parenthesis runs to the end of the text.
 */
export function parse(source: string): Parsed {
  const pipelines: SimpleCommand[][] = [];
  let pipeline: SimpleCommand[] = [];
  let command: SimpleCommand = { words: [], nested: [] };
  let word: string | null = null;

  const endWord = () => {
    if (word !== null) command.words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (command.words.length > 0 || command.nested.length > 0) pipeline.push(command);
    command = { words: [], nested: [] };
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length > 0) pipelines.push(pipeline);
    pipeline = [];
  };
  const append = (text: string) => {
    word = (word ?? '') + text;
  };

  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === ' ' || c === '\t') {
      endWord();
      i += 1;
    } else if (c === '\n' || c === ';' || c === '(' || c === ')') {
      endPipeline();
      i += c === ';' && next === ';' ? 2 : 1;
    } else if (c === '&' && next === '&') {
      endPipeline();
      i += 2;
    } else if (c === '|' && next === '|') {
      endPipeline();
      i += 2;
    } else if (c === '|') {
      endCommand();
      i += next === '&' ? 2 : 1;
    } else if (c === '&' && next !== '>' && source[i - 1] !== '>' && source[i - 1] !== '<') {
      // A lone & (background) ends the command; `&>`, `2>&1` and `<&3` are redirections.
      endPipeline();
      i += 1;
    } else if (c === '#' && word === null) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
    } else if (c === '\\') {
      if (next !== '\n' && next !== undefined) append(next);
      i += 2;
    } else if (c === "'") {
      const end = source.indexOf("'", i + 1);
      append(source.slice(i + 1, end === -1 ? source.length : end));
      i = end === -1 ? source.length : end + 1;
    } else if (c === '"') {
      i = readDoubleQuoted(source, i + 1, append, command.nested);
    } else if ((c === '$' || c === '<' || c === '>') && next === '(') {
      const end = matchingParen(source, i + 1);
      command.nested.push(source.slice(i + 2, end));
      append(source.slice(i, end + 1));
      i = end + 1;
    } else if (c === '`') {
      const end = source.indexOf('`', i + 1);
      command.nested.push(source.slice(i + 1, end === -1 ? source.length : end));
      append(source.slice(i, end === -1 ? source.length : end + 1));
      i = end === -1 ? source.length : end + 1;
    } else {
      append(c);
      i += 1;
    }
  }
  endPipeline();
  return { pipelines };
}

/** Reads a double-quoted string from `start` (after the quote); returns the index after its closing quote. */
function readDoubleQuoted(source: string, start: number, append: (text: string) => void, nested: string[]): number {
  let i = start;
  let text = '';
  while (i < source.length && source[i] !== '"') {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length && '"\\$`\n'.includes(source[i + 1]!)) {
      if (source[i + 1] !== '\n') text += source[i + 1];
      i += 2;
    } else if (c === '$' && source[i + 1] === '(') {
      const end = matchingParen(source, i + 1);
      nested.push(source.slice(i + 2, end));
      text += source.slice(i, end + 1);
      i = end + 1;
    } else if (c === '`') {
      const end = source.indexOf('`', i + 1);
      nested.push(source.slice(i + 1, end === -1 ? source.length : end));
      text += source.slice(i, end === -1 ? source.length : end + 1);
      i = end === -1 ? source.length : end + 1;
    } else {
      text += c;
      i += 1;
    }
  }
  append(text);
  return i + 1;
}

/** The index of the `)` closing the `(` at `open`, skipping quoted text; the end of the text when there is none. */
function matchingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    const c = source[i];
    if (c === '\\') i += 1;
    else if (c === "'") {
      const end = source.indexOf("'", i + 1);
      i = end === -1 ? source.length : end;
    } else if (c === '"') {
      for (i += 1; i < source.length && source[i] !== '"'; i += 1) if (source[i] === '\\') i += 1;
    } else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return source.length;
}
