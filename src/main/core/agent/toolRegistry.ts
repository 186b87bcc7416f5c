// The tools one session offers the model: the same list in every mode.
import type { ToolSpec } from '../model/types';
import { toolSpecFromZod } from '../model/toolSpecs';
import type { CallValidator } from '../sessions/load';
import type { ToolDisplay } from '../../../shared/domain';
import { displayOf, type AnyTool } from '../tools/types';
import { isMcpToolName } from '../mcp/toolName';

export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  private specCache: ToolSpec[] | null = null;

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Two tools are named ${tool.name}; tool names must be unique.`);
      this.byName.set(tool.name, tool);
    }
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  /**
   * How a window shows a call of `name`, also for a saved call: an MCP tool
   * whose server is not connected now is still known by its name's shape.
   */
  readonly display = (name: string): ToolDisplay | null => {
    const tool = this.byName.get(name);
    if (tool) return displayOf(tool);
    return isMcpToolName(name) ? displayOf({ kind: 'mcp' }) : null;
  };

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** What the model is told: name, description and argument schema of every tool. Computed once. */
  specs(): ToolSpec[] {
    this.specCache ??= [...this.byName.values()].map((tool) =>
      tool.jsonSchema
        ? { name: tool.name, description: tool.description, parameters: tool.jsonSchema }
        : toolSpecFromZod(tool.name, tool.description, tool.argsSchema),
    );
    return this.specCache;
  }

  /**
   * The pure check run on every recorded tool start when a session loads.
   * External (MCP) tools may be absent when a session is loaded, so for them
   * only the shape of the arguments can be checked.
   */
  readonly validateCall: CallValidator = (name, rawArguments) => {
    const parsed = parseArguments(rawArguments);
    if (!parsed.ok) return parsed;
    const tool = this.byName.get(name);
    if (tool) {
      const validation = tool.validate(parsed.value);
      return validation.ok ? { ok: true } : { ok: false, reason: validation.reason };
    }
    if (isMcpToolName(name)) {
      return isPlainObject(parsed.value) ? { ok: true } : { ok: false, reason: 'MCP tool arguments must be a JSON object.' };
    }
    return { ok: false, reason: `unknown tool ${name}` };
  };
}

export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, reason: 'The arguments are not valid JSON. Send the arguments as one JSON object.' };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
