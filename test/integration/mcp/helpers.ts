// Shared steps of the MCP tests: find a tool by its model-facing name and run
// it the way the agent loop does (validate, inspect, execute).
import { expect } from 'vitest';
import type { ToolResult } from '../../../src/shared/domain';
import type { McpManager } from '../../../src/main/core/mcp/manager';
import type { AnyTool, ToolContext } from '../../../src/main/core/tools/types';

export async function toolNamed(manager: McpManager, name: string): Promise<AnyTool> {
  const { tools, problems } = await manager.tools();
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}; offered: ${tools.map((t) => t.name).join(', ')}; problems: ${problems.join(' / ')}`);
  return tool;
}

export async function runTool(tool: AnyTool, raw: unknown, ctx: ToolContext): Promise<ToolResult> {
  const validation = tool.validate(raw);
  expect(validation).toMatchObject({ ok: true });
  if (!validation.ok) throw new Error(validation.reason);
  const inspection = await tool.inspect(validation.args, ctx);
  if (!inspection.ok) return inspection.result;
  return tool.execute(validation.args, inspection.state, ctx);
}
