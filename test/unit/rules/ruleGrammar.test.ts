import { describe, expect, it } from 'vitest';
import { isMcpToolName, serverNameProblem } from '../../../src/main/core/mcp/toolName';
import { parseRule } from '../../../src/main/core/rules/ruleGrammar';

const grammar = { knownTools: ['read_file', 'write_file', 'bash'], isMcpToolName, serverNameProblem };
const parse = (text: string) => parseRule(text, grammar);

describe('the rule grammar', () => {
  it.each([
    ['allow bash npm test', { kind: 'bash', effect: 'allow', outside: false, prefix: ['npm', 'test'] }],
    ['deny  bash   git push', { kind: 'bash', effect: 'deny', outside: false, prefix: ['git', 'push'] }],
    ['ask bash-outside make', { kind: 'bash', effect: 'ask', outside: true, prefix: ['make'] }],
    ['allow mcp files', { kind: 'mcp', effect: 'allow', server: 'files', tool: null }],
    ['deny mcp files/write_file', { kind: 'mcp', effect: 'deny', server: 'files', tool: 'write_file' }],
    ['ask file secrets/**', { kind: 'file', effect: 'ask', access: 'all', glob: 'secrets/**' }],
    ['deny file-write ./src/generated/*.ts', { kind: 'file', effect: 'deny', access: 'write', glob: 'src/generated/*.ts' }],
    ['protect docs/secret.md', { kind: 'protect', glob: 'docs/secret.md' }],
    ['off bash', { kind: 'off', tool: 'bash' }],
    ['off mcp_files__write_file', { kind: 'off', tool: 'mcp_files__write_file' }],
  ])('reads "%s"', (text, body) => {
    const parsed = parse(text);
    expect(parsed).toEqual({ ok: true, body, text: expect.any(String) });
  });

  it('gives each rule one canonical text, the same from words and from text', () => {
    expect(parse('  deny   bash  git   push ')).toMatchObject({ text: 'deny bash git push' });
    expect(parseRule(['deny', 'bash', 'git', 'push'], grammar)).toMatchObject({ text: 'deny bash git push' });
    expect(parse('deny file-write ./a/*.ts')).toMatchObject({ text: 'deny file-write a/*.ts' });
  });

  it.each([
    ['', /a rule is empty/],
    ['allow bash', /needs a command prefix/],
    ['deny bash-outside', /needs a command prefix/],
    ['allow bash echo;rm', /holds a character the shell reads specially/],
    ['allow bash $(x)', /holds a character the shell reads specially/],
    ['protect ../outside.txt', /escapes the project with "\.\."/],
    ['deny file a/../../b', /escapes the project/],
    ['protect /etc/passwd', /is an absolute path/],
    ['ask file ~/notes', /is an absolute path/],
    ['off frobnicate', /there is no tool named "frobnicate"/],
    ['off', /takes one tool name/],
    ['permit bash echo', /"permit" is not a kind of rule/],
    ['allow shell echo', /must be followed by bash, bash-outside, mcp, file or file-write, not "shell"/],
    ['allow file docs/*', /file rules can ask or deny, not allow/],
    ['allow mcp', /needs a server/],
    ['allow mcp bad__server', /the server name "bad__server"/],
    ['protect a b', /takes one glob/],
  ])('refuses "%s" saying what is wrong', (text, message) => {
    const parsed = parse(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.reason).toMatch(/^Not a valid rule: /);
      expect(parsed.reason).toMatch(message);
    }
  });
});
