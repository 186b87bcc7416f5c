// The model's pattern as a JavaScript regular expression. Pure, so a pattern
// that does not compile is refused in validate(), before any worker starts.
//
// V8's engine backtracks: a pattern such as (a+)+$ can take exponential time
// on one line. It is still the engine here, because it runs in a worker that
// a watchdog ends when it stops making progress (runSearchWorker.ts). The
// linear-time alternative, re2js, was measured on 9 MB of TypeScript's own
// source: as fast for a plain word, but 20 to 70 times slower for ordinary
// regular expressions (`function\s+\w+Node\(` 197 ms against V8's 9.5 ms,
// `[A-Z][a-z]+Error\b` 1,836 ms against 27 ms), which would miss the speed
// target of at most 3x ripgrep on a large tree by far.

export interface CompiledPattern {
  source: string;
  flags: string;
}

export type PatternResult = { ok: true; pattern: CompiledPattern } | { ok: false; reason: string };

export interface PatternOptions {
  fixedStrings: boolean;
  caseInsensitive: boolean;
}

// Unicode mode only where the pattern needs it (\p{...}, \u{...}): it refuses
// identity escapes such as \" or \< that people write out of habit.
const NEEDS_UNICODE = /\\[pP]\{|\\u\{/;

/** The regular expression for `pattern`: 'g' to walk a file's matches, 'm' so ^ and $ are line ends, as in ripgrep. */
export function compilePattern(pattern: string, options: PatternOptions): PatternResult {
  const source = options.fixedStrings ? escapeRegExp(pattern) : pattern;
  const flags = `gm${options.caseInsensitive ? 'i' : ''}${!options.fixedStrings && NEEDS_UNICODE.test(pattern) ? 'u' : ''}`;
  try {
    new RegExp(source, flags);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason:
        `the pattern is not a valid JavaScript regular expression (${message}). ` +
        'Fix it, or send "fixed_strings": true to search for the text literally.',
    };
  }
  return { ok: true, pattern: { source, flags } };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

// An escaped character that stands for itself (punctuation); an escaped letter or digit is a class, an anchor or a code.
const LITERAL_ESCAPE = /^[^A-Za-z0-9]$/;

/**
 * Text that every match of the pattern contains, or null when none is known.
 * A file whose bytes do not hold it cannot match, so it is passed by without
 * being decoded or matched: most files of a search, as in ripgrep. Found by
 * a deliberately simple reading: only a pattern without alternation and
 * without the i or u flag, and only its plain characters outside groups and
 * classes that no quantifier makes optional; the longest such run is taken.
 * Ending a run early is always safe (each run is required on its own), so
 * whatever this does not understand ends the run.
 */
export function requiredLiteral(pattern: CompiledPattern): string | null {
  const { source, flags } = pattern;
  if (flags.includes('i') || flags.includes('u') || source.includes('|')) return null;
  let best = '';
  let run = '';
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\' && LITERAL_ESCAPE.test(source[i + 1] ?? 'x')) {
      run += source[++i];
    } else if (c === '*' || c === '?' || (c === '{' && /^\{0[,}]/.test(source.slice(i, i + 3)))) {
      // The character before may be absent: it leaves the run.
      run = run.slice(0, -1);
      endRun();
      i = quantifierEnd(source, i);
    } else if (c === '+' || c === '{') {
      // Present at least once, but more of it may come before what follows.
      endRun();
      i = quantifierEnd(source, i);
    } else if (c === '\\') {
      endRun();
      i = escapeEnd(source, i);
    } else if (c === '[') {
      endRun();
      i = classEnd(source, i);
    } else if (c === '(') {
      endRun();
      i = groupEnd(source, i);
    } else if (c === '.' || c === '^' || c === '$') {
      endRun();
    } else {
      run += c;
    }
  }
  endRun();
  return best.length >= 2 ? best : null;
}

/** The index of a quantifier's last character (`{2,5}` and a lazy `?` included). */
function quantifierEnd(source: string, i: number): number {
  const end = source[i] === '{' ? Math.max(i, source.indexOf('}', i)) : i;
  return source[end + 1] === '?' ? end + 1 : end;
}

/** The index of the last character of the escape of a letter or digit at `i`: \xHH, \uHHHH, \cX, \k<name>, \12, \w. */
function escapeEnd(source: string, i: number): number {
  const letter = source[i + 1] ?? '';
  if (letter === 'x') return i + 3;
  if (letter === 'u') return i + 5;
  if (letter === 'c') return i + 2;
  if (letter === 'k' && source[i + 2] === '<') return Math.max(i + 1, source.indexOf('>', i));
  let end = i + 1;
  if (/[0-9]/.test(letter)) while (/[0-9]/.test(source[end + 1] ?? '')) end++;
  return end;
}

/** The index of the `]` that closes the class opened at `i` (in JavaScript, `[]` is a class, so the first unescaped `]`). */
function classEnd(source: string, i: number): number {
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === '\\') j++;
    else if (source[j] === ']') return j;
  }
  return source.length;
}

/** The index of the `)` that closes the group opened at `i`. */
function groupEnd(source: string, i: number): number {
  let depth = 0;
  for (let j = i; j < source.length; j++) {
    const c = source[j];
    if (c === '\\') j++;
    else if (c === '[') j = classEnd(source, j);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return source.length;
}
