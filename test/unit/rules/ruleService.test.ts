import { describe, expect, it } from 'vitest';
import { commandParts } from '../../../src/main/core/rules/commandParts';
import { alwaysAllowRule } from '../../../src/main/core/rules/ruleService';

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
