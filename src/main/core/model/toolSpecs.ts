// Tool argument schemas are written once in zod; this turns one into the JSON
// schema the Responses API accepts for a function tool.
import { z } from 'zod';
import type { ToolSpec } from './types';

export function toolSpecFromZod(name: string, description: string, schema: z.ZodType): ToolSpec {
  // "input": describe what the model must send, so defaults make fields optional, not required.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  if (json.type !== 'object') {
    throw new Error(`The arguments of tool "${name}" must be an object schema, got ${JSON.stringify(json.type ?? 'none')}.`);
  }
  return {
    name,
    description,
    parameters: {
      ...json,
      type: 'object',
      properties: json.properties ?? {},
      required: json.required ?? [],
      additionalProperties: false,
    },
  };
}
