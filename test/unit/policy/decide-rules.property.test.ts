// The decision with rules, over generated compound commands read by the real
// parser: a command with one part no allow rule covers is never allowed by
// rules, and a part a deny rule covers refuses the command wherever it hides.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/main/core/policy/decide';
import { commandParts } from '../../../src/main/core/rules/commandParts';
import { parseRule } from '../../../src/main/core/rules/ruleGrammar';
import type { ActiveRule } from '../../../src/main/core/rules/rules';

function rules(...texts: string[]): ActiveRule[] {
  return texts.map((text, index) => {
    const parsed = parseRule(text, { knownTools: [], isMcpToolName: () => false });
    if (!parsed.ok) throw new Error(parsed.reason);
    return { id: `r${index + 1}`, text: parsed.text, scope: { global: true }, added: '', body: parsed.body };
  });
}

const COVERED = ['echo hi', 'ls -la', 'git status'];
const ALLOWED = rules('allow bash echo', 'allow bash ls', 'allow bash git status');
const OPERATORS = ['; ', ' && ', ' || ', ' | ', '\n'];
const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const NESTINGS: Array<(a: string) => string> = [(a) => `(${a})`, (a) => `echo $(${a})`, (a) => `echo \`${a}\``, (a) => `bash -c ${single(a)}`, (a) => `if ${a}; then echo hi; fi`, (a) => `cat <(${a})`];

/** A list of covered commands with `hidden` inserted once, somewhere, possibly nested. */
const withHidden = (hidden: string) =>
  fc
    .tuple(fc.array(fc.constantFrom(...COVERED), { maxLength: 3 }), fc.nat(), fc.array(fc.constantFrom(...NESTINGS), { maxLength: 2 }), fc.constantFrom(...OPERATORS))
    .map(([covered, at, nestings, operator]) => {
      const inner = nestings.reduce((command, nest) => nest(command), hidden);
      const list = [...covered];
      list.splice(at % (covered.length + 1), 0, inner);
      return list.join(operator);
    });

describe('decide with rules, over generated commands', () => {
  it('never allows by rules a command with one part no allow rule covers', async () => {
    await fc.assert(
      fc.asyncProperty(withHidden('touch pwned'), async (command) => {
        const verdict = decide({ kind: 'bash' }, 'manual', { rules: ALLOWED, toolName: 'bash', command: await commandParts(command) });
        expect(verdict.decision).toBe('ask');
      }),
      { numRuns: 150 },
    );
  });

  it('refuses, or asks for, a command hiding a denied part, even in bypass mode', async () => {
    const withDeny = [...ALLOWED, ...rules('deny bash rm')];
    await fc.assert(
      fc.asyncProperty(withHidden('rm -rf x'), async (command) => {
        const verdict = decide({ kind: 'bash' }, 'bypass', { rules: withDeny, toolName: 'bash', command: await commandParts(command) });
        expect(['deny', 'ask']).toContain(verdict.decision);
      }),
      { numRuns: 150 },
    );
  });
});
