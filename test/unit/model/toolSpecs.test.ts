import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolSpecFromZod } from '../../../src/main/core/model/toolSpecs';

describe('toolSpecFromZod', () => {
  it('makes an object schema the Responses API accepts: no $schema, required list, no extra properties', () => {
    const spec = toolSpecFromZod(
      'write_file',
      'Writes a file.',
      z.object({ path: z.string().describe('Project-relative path'), mode: z.enum(['create', 'overwrite']).default('create') }),
    );
    expect(spec.name).toBe('write_file');
    expect(spec.description).toBe('Writes a file.');
    expect(spec.parameters).not.toHaveProperty('$schema');
    expect(spec.parameters).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string', description: 'Project-relative path' }, mode: { enum: ['create', 'overwrite'] } },
      required: ['path'],
      additionalProperties: false,
    });
  });

  it('gives an empty object schema explicit empty properties and required', () => {
    expect(toolSpecFromZod('noop', 'No arguments.', z.object({})).parameters).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  it('rejects a schema that is not an object', () => {
    expect(() => toolSpecFromZod('bad', 'Bad.', z.string())).toThrow(/must be an object schema/);
  });
});
