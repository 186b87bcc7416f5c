import { describe, expect, it } from 'vitest';
import { commandParts } from '../../../src/main/core/rules/commandParts';
import { alwaysAllowRule, ruleChangeLoosens } from '../../../src/main/core/rules/ruleService';

describe('the rule "Always allow" offers', () => {
  it.each([
    ['npm test -- --watch', false, 'allow bash npm test'],
    ['git status', false, 'allow bash git status'],
    ['ls -la src', false, 'allow bash ls'],
    ['./build.sh release', true, 'allow bash-outside ./build.sh release'],
    ['echo hi; touch pwned', false, null],
    ['$TOOL run', false, null],
    ['CI=1 npm test', false, null],
    ['echo $(date)', false, null],
  ])('for %j (outside: %s): %s', async (command, outside, rule) => {
    expect(alwaysAllowRule({ kind: 'bash', outside, command: await commandParts(command) })).toBe(rule);
  });

  it('offers one MCP tool, and nothing for a file write', () => {
    expect(alwaysAllowRule({ kind: 'mcp', outside: false, mcp: { server: 'files', tool: 'read' } })).toBe('allow mcp files/read');
    expect(alwaysAllowRule({ kind: 'file_write', outside: false })).toBeNull();
  });
});

describe('which rule changes loosen, and so wait for the person\'s yes in main', () => {
  it.each([
    ['allow bash npm test', true],
    ['allow bash-outside make', true],
    ['allow mcp files', true],
    ['deny bash rm', false],
    ['ask mcp files/write', false],
    ['protect docs/secret.md', false],
    ['off bash', false],
  ])('adding %j loosens: %s', (text, loosens) => {
    expect(ruleChangeLoosens({ add: text })).toBe(loosens);
  });

  it.each([
    ['allow bash npm test', false],
    ['deny bash rm', true],
    ['ask file-write src/**', true],
    ['protect docs/secret.md', true],
    ['off bash', true],
    ['not a rule any more', true],
  ])('removing %j loosens: %s', (text, loosens) => {
    expect(ruleChangeLoosens({ remove: text })).toBe(loosens);
  });
});
