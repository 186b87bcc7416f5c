import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandParts, partMatchesPrefix, type CommandReading } from '../../../src/main/core/rules/commandParts';

// Compound commands built from simple commands a rule set covers, joined by
// random operators and nested in random constructs, with at most one command
// no rule covers (`touch pwned`) somewhere inside.

const COVERED = ['echo hi', 'ls -la', 'npm test', 'git status'];
const UNCOVERED = 'touch pwned';
const ALLOW = [['echo'], ['ls'], ['npm', 'test'], ['git', 'status'], ['cat'], ['sudo'], ['timeout'], ['xargs'], ['env'], ['find'], ['bash', '-c'], ['sh', '-c'], ['eval']];

const OPERATORS = ['; ', ' && ', ' || ', ' | ', ' & ', '\n'];
const singleQuoted = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Constructs around any command list. */
const NESTINGS: ((a: string) => string)[] = [
  (a) => `(${a})`,
  (a) => `{ ${a}; }`,
  (a) => `echo $(${a})`,
  (a) => `echo "x $(${a}) y"`,
  (a) => `x=$(${a})`,
  (a) => `cat <(${a})`,
  (a) => `cat >(${a})`,
  (a) => `if ${a}; then echo hi; fi`,
  (a) => `if echo hi; then ls -la; else ${a}; fi`,
  (a) => `while ${a}; do ls -la; done`,
  (a) => `for x in 1 2; do ${a}; done`,
  (a) => `case x in x) ${a};; esac`,
  (a) => `f() { ${a}; }`,
  (a) => `bash -c ${singleQuoted(a)}`,
  (a) => `sh -c ${singleQuoted(a)}`,
  (a) => `eval ${singleQuoted(a)}`,
];

/** Constructs around one simple command. */
const WRAPPERS: ((a: string) => string)[] = [
  (a) => a,
  (a) => `sudo ${a}`,
  (a) => `timeout 5 ${a}`,
  (a) => `echo x | xargs ${a}`,
  (a) => `env -i ${a}`,
  (a) => `find . -exec ${a} {} +`,
  (a) => `echo \`${a}\``,
];

function compound(leaf: fc.Arbitrary<string>, withUncovered: boolean): fc.Arbitrary<string> {
  const { tree } = fc.letrec<{ tree: string; good: string }>((tie) => ({
    good: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      wrapped(fc.constantFrom(...COVERED)),
      joined(tie('good'), tie('good')),
      nested(tie('good')),
    ),
    tree: withUncovered
      ? fc.oneof({ depthSize: 'small', withCrossShrink: true }, wrapped(leaf), joined(tie('tree'), tie('good')), joined(tie('good'), tie('tree')), nested(tie('tree')))
      : tie('good'),
  }));
  return tree;
}

const wrapped = (leaf: fc.Arbitrary<string>) => fc.tuple(fc.constantFrom(...WRAPPERS), leaf).map(([wrap, command]) => wrap(command));
const joined = (a: fc.Arbitrary<string>, b: fc.Arbitrary<string>) =>
  fc.tuple(a, fc.constantFrom(...OPERATORS), b).map(([left, operator, right]) => `${left}${operator}${right}`);
const nested = (a: fc.Arbitrary<string>) => fc.tuple(fc.constantFrom(...NESTINGS), a).map(([nest, inner]) => nest(inner));

/** Whether some part runs `touch pwned` (after leading NAME=VALUE words). */
function runsUncovered(reading: CommandReading): boolean {
  return reading.ok && reading.parts.some((part) => {
    const start = part.words.findIndex((word) => !/^[A-Za-z_]\w*=/.test(word));
    return partMatchesPrefix({ words: part.words.slice(start), expanded: [] }, ['touch', 'pwned']);
  });
}

const allowed = (reading: CommandReading): boolean =>
  reading.ok && reading.parts.every((part) => ALLOW.some((prefix) => partMatchesPrefix(part, prefix)));

describe('compound commands (property)', () => {
  it('a command no rule covers is a part wherever it sits, or the call asks', async () => {
    await fc.assert(
      fc.asyncProperty(compound(fc.constant(UNCOVERED), true), async (command) => {
        const reading = await commandParts(command);
        expect(!reading.ok || runsUncovered(reading), command).toBe(true);
        expect(allowed(reading), command).toBe(false);
      }),
      { numRuns: 200, seed: 24 },
    );
  });

  it('commands the rules cover are read, not refused, however they are combined', async () => {
    await fc.assert(
      fc.asyncProperty(compound(fc.constant(UNCOVERED), false), async (command) => {
        const reading = await commandParts(command);
        expect(reading.ok ? reading.parts : reading.reason, command).not.toBeTypeOf('string');
        expect(allowed(reading), command).toBe(true);
      }),
      { numRuns: 200, seed: 24 },
    );
  });
});
