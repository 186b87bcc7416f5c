// The order of one decision with the person's rules: the protected floor,
// then deny, ask and allow rules, then the mode table.
import { describe, expect, it } from 'vitest';
import { decideWithCause, type DecisionFacts, type RuleInputs } from '../../../src/main/core/policy/decide';
import { isMcpToolName } from '../../../src/main/core/mcp/toolName';
import type { CommandReading } from '../../../src/main/core/rules/commandParts';
import { parseRule } from '../../../src/main/core/rules/ruleGrammar';
import type { ActiveRule } from '../../../src/main/core/rules/rules';
import type { ProjectPath } from '../../../src/main/core/tools/types';

const p = (path: string) => path as ProjectPath;

/** Rules r1, r2... in the order given, for the project. */
function rules(...texts: string[]): ActiveRule[] {
  return texts.map((text, index) => {
    const parsed = parseRule(text, { knownTools: ['bash', 'read_file'], isMcpToolName });
    if (!parsed.ok) throw new Error(parsed.reason);
    return { id: `r${index + 1}`, text: parsed.text, scope: { project: '/p' }, added: '2026-01-01T00:00:00.000Z', body: parsed.body };
  });
}

const parts = (...commands: string[][]): CommandReading => ({ ok: true, parts: commands.map((words) => ({ words, expanded: [] })) });
const bash = (command: CommandReading, extra: Partial<RuleInputs> = {}): RuleInputs & { command: CommandReading } => ({ rules: [], toolName: 'bash', command, ...extra });
const sandboxed: DecisionFacts = { kind: 'bash' };

/** The verdict with what settled it, as one object to match. */
function decide(facts: DecisionFacts, mode: Parameters<typeof decideWithCause>[1], inputs?: RuleInputs) {
  const { verdict, by } = decideWithCause(facts, mode, inputs);
  return { ...verdict, by };
}

describe('decide with rules', () => {
  it('allows a command in manual mode when an allow rule covers its only part, shown and naming the rule', () => {
    const verdict = decide(sandboxed, 'manual', { ...bash(parts(['echo', 'hi'])), rules: rules('allow bash echo') });
    expect(verdict).toMatchObject({ decision: 'allow', shown: true, by: { kind: 'rules', rules: [{ id: 'r1', text: 'allow bash echo' }] } });
    expect(verdict.rules).toEqual([{ id: 'r1', text: 'allow bash echo' }]);
  });

  it('allows a compound command only when every part is covered', () => {
    const allowEcho = rules('allow bash echo', 'allow bash ls');
    expect(decide(sandboxed, 'manual', { ...bash(parts(['echo', 'a'], ['ls', '-l'])), rules: allowEcho })).toMatchObject({ decision: 'allow', by: { rules: [{ id: 'r1' }, { id: 'r2' }] } });
    expect(decide(sandboxed, 'manual', { ...bash(parts(['echo', 'a'], ['touch', 'pwned'])), rules: allowEcho })).toMatchObject({ decision: 'ask', by: { kind: 'mode' } });
  });

  it('refuses a command with a part a deny rule covers, in every mode, over an allow rule', () => {
    const verdict = decide(sandboxed, 'bypass', { ...bash(parts(['echo', 'a'], ['rm', '-rf', 'x'])), rules: rules('allow bash echo', 'deny bash rm') });
    expect(verdict).toMatchObject({ decision: 'deny', by: { kind: 'rules', rules: [{ id: 'r2', text: 'deny bash rm' }] } });
    expect(verdict.reason).toContain('r2 "deny bash rm"');
  });

  it('asks for a part an ask rule covers, even in bypass mode', () => {
    expect(decide(sandboxed, 'bypass', { ...bash(parts(['git', 'push'])), rules: rules('ask bash git push') })).toMatchObject({ decision: 'ask', by: { kind: 'rules' } });
  });

  it('asks for a command it cannot read when a deny or ask rule could be hidden in it; leaves it to the mode otherwise', () => {
    const unreadable: CommandReading = { ok: false, reason: 'a variable in command position' };
    expect(decide(sandboxed, 'bypass', { ...bash(unreadable), rules: rules('deny bash rm') })).toMatchObject({ decision: 'ask', by: { kind: 'rules' } });
    expect(decide(sandboxed, 'manual', { ...bash(unreadable), rules: rules('allow bash echo') })).toMatchObject({ decision: 'ask', by: { kind: 'mode' } });
    expect(decide(sandboxed, 'bypass', { ...bash(unreadable), rules: rules('allow bash echo') })).toMatchObject({ decision: 'allow', by: { kind: 'mode' } });
  });

  it('keeps allow rules to their side of the sandbox; deny rules for bash hold on both', () => {
    const outside: DecisionFacts = { kind: 'bash', outsideSandbox: true };
    const noSandbox: DecisionFacts = { kind: 'bash', noSandbox: true };
    const echo = parts(['echo', 'hi']);
    expect(decide(outside, 'bypass', { ...bash(echo), rules: rules('allow bash echo') })).toMatchObject({ decision: 'ask', by: { kind: 'mode' } });
    expect(decide(outside, 'manual', { ...bash(echo), rules: rules('allow bash-outside echo') })).toMatchObject({ decision: 'allow', by: { kind: 'rules' } });
    expect(decide(noSandbox, 'manual', { ...bash(echo), rules: rules('allow bash echo') })).toMatchObject({ decision: 'ask', by: { kind: 'mode' } });
    expect(decide(noSandbox, 'manual', { ...bash(echo), rules: rules('allow bash-outside echo') })).toMatchObject({ decision: 'allow' });
    expect(decide(sandboxed, 'manual', { ...bash(echo), rules: rules('allow bash-outside echo') })).toMatchObject({ decision: 'ask', by: { kind: 'mode' } });
    expect(decide(outside, 'manual', { ...bash(parts(['rm', 'x'])), rules: rules('deny bash rm') })).toMatchObject({ decision: 'deny' });
    expect(decide(sandboxed, 'manual', { ...bash(parts(['rm', 'x'])), rules: rules('deny bash-outside rm') })).toMatchObject({ decision: 'ask', by: { kind: 'mode' } });
  });

  it('refuses a path the person protected in bypass mode, and no rule reaches a protected path', () => {
    const read: DecisionFacts = { kind: 'restricted_read', path: p('docs/secret.md'), pathIs: 'file' };
    const verdict = decide(read, 'bypass', { rules: rules('protect docs/secret.md'), toolName: 'read_file' });
    expect(verdict).toMatchObject({ decision: 'deny', by: { kind: 'protected', rule: { id: 'r1', text: 'protect docs/secret.md' } } });
    expect(verdict.reason).toMatch(/^Blocked by policy: docs\/secret.md is a protected path/);
    expect(decide({ kind: 'restricted_read', path: p('Docs/SECRET.md'), pathIs: 'file' }, 'bypass', { rules: rules('protect docs/secret.md'), toolName: 'read_file' }).decision).toBe('deny');
    expect(decide({ kind: 'restricted_read', path: p('secrets/a/key.txt'), pathIs: 'file' }, 'bypass', { rules: rules('protect secrets'), toolName: 'read_file' }).decision).toBe('deny');
    expect(decide({ kind: 'file_write', path: p('.env'), pathIs: 'file' }, 'bypass', { rules: rules('ask file .env'), toolName: 'write_file' })).toMatchObject({ decision: 'deny', by: { kind: 'protected', protected: '.env' } });
  });

  it('asks or refuses file access by glob: all access, or writes only', () => {
    const read: DecisionFacts = { kind: 'restricted_read', path: p('data/big.csv'), pathIs: 'file' };
    const write: DecisionFacts = { kind: 'file_write', path: p('data/big.csv'), pathIs: 'file' };
    expect(decide(read, 'bypass', { rules: rules('ask file data/*.csv'), toolName: 'read_file' })).toMatchObject({ decision: 'ask', by: { kind: 'rules' } });
    expect(decide(read, 'bypass', { rules: rules('deny file-write data/**'), toolName: 'read_file' })).toMatchObject({ decision: 'allow', by: { kind: 'mode' } });
    expect(decide(write, 'bypass', { rules: rules('deny file-write data/**'), toolName: 'write_file' })).toMatchObject({ decision: 'deny', by: { kind: 'rules' } });
  });

  it('judges an MCP call by its server and tool', () => {
    const mcp: DecisionFacts = { kind: 'mcp' };
    const inputs = (text: string) => ({ rules: rules(text), toolName: 'mcp_files__read', mcp: { server: 'files', tool: 'read' } });
    expect(decide(mcp, 'manual', inputs('allow mcp files'))).toMatchObject({ decision: 'allow', shown: true });
    expect(decide(mcp, 'manual', inputs('allow mcp files/read'))).toMatchObject({ decision: 'allow' });
    expect(decide(mcp, 'manual', inputs('allow mcp files/write'))).toMatchObject({ decision: 'ask', by: { kind: 'mode' } });
    expect(decide(mcp, 'bypass', inputs('deny mcp files'))).toMatchObject({ decision: 'deny' });
    expect(decide(mcp, 'bypass', inputs('deny mcp other'))).toMatchObject({ decision: 'allow', by: { kind: 'mode' } });
  });

  it('is the mode table when no rule applies', () => {
    expect(decideWithCause(sandboxed, 'manual', bash(parts(['echo'])))).toEqual(decideWithCause(sandboxed, 'manual'));
  });
});
