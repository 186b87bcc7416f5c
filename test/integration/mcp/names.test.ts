// Tool names the model API accepts, stable across restarts, and collisions
// reported rather than silently shadowed.
import { afterAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/main/core/mcp/manager';
import { mcpToolName } from '../../../src/main/core/mcp/toolNames';
import { isMcpToolName, validateMcpArguments } from '../../../src/main/core/mcp/validateCall';
import { probeServer } from '../../support/mcp/servers';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';

const API_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('mcpToolName', () => {
  it('joins server and tool as mcp_<server>__<tool>', () => {
    expect(mcpToolName('everything', 'get-sum')).toBe('mcp_everything__get-sum');
  });

  it('replaces characters the model API refuses', () => {
    const name = mcpToolName('my server', 'files/read.v2');
    expect(name).toBe('mcp_my_server__files_read_v2');
    expect(name).toMatch(API_NAME);
  });

  it('keeps long names within 64 characters, distinct and the same every time', () => {
    const a = mcpToolName('a-rather-long-server-name', 'an_extremely_long_tool_name_that_goes_on_and_on_one');
    const b = mcpToolName('a-rather-long-server-name', 'an_extremely_long_tool_name_that_goes_on_and_on_two');
    expect(a).toMatch(API_NAME);
    expect(b).toMatch(API_NAME);
    expect(a).not.toBe(b);
    expect(mcpToolName('a-rather-long-server-name', 'an_extremely_long_tool_name_that_goes_on_and_on_one')).toBe(a);
    expect(isMcpToolName(a)).toBe(true);
  });
});

describe('isMcpToolName and validateMcpArguments (pure, for replay)', () => {
  it('recognizes MCP names and nothing else', () => {
    expect(isMcpToolName('mcp_everything__echo')).toBe(true);
    expect(isMcpToolName('read_file')).toBe(false);
    expect(isMcpToolName('mcp_everything')).toBe(false);
    expect(isMcpToolName('mcp_a__b c')).toBe(false);
    expect(isMcpToolName(`mcp_a__${'b'.repeat(60)}`)).toBe(false);
  });

  it('accepts a JSON object and refuses anything else with a reason that says how to recover', () => {
    expect(validateMcpArguments({ a: 1 })).toEqual({ ok: true, args: { a: 1 } });
    for (const raw of [null, [], 'text', 3]) {
      expect(validateMcpArguments(raw)).toEqual({ ok: false, reason: expect.stringContaining('Call again with an object') });
    }
  });
});

describe('name collisions', () => {
  const dirs: string[] = [];
  afterAll(async () => removeDirs(dirs));

  it('offers the first of two tools that sanitize to the same name and reports the second', async () => {
    const projectDir = await makeTempDir('project');
    dirs.push(projectDir);
    const manager = new McpManager({ servers: [probeServer('my.probe'), probeServer('my_probe')], projectDir });
    try {
      const { tools, problems } = await manager.tools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['mcp_my_probe__crash', 'mcp_my_probe__hang', 'mcp_my_probe__whoami']);
      expect(tools.every((tool) => tool.description.includes('of the my.probe MCP server'))).toBe(true);
      expect(problems).toHaveLength(3);
      expect(problems[0]).toMatch(/MCP tool names collide: a tool of the my_probe server would be offered as mcp_my_probe__\w+, which the my\.probe server already uses/);
    } finally {
      await manager.close();
    }
  });
});
