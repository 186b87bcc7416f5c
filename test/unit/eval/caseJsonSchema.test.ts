import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_JSON_SCHEMA_FILE, caseJsonSchemaText } from '../../../src/main/core/eval/caseJsonSchema';

describe('schemas/eval-case.schema.json', () => {
  it('is the JSON Schema made from the case file schemas (regenerate it as caseJsonSchema.ts says)', async () => {
    const checkedIn = await fs.readFile(path.resolve(__dirname, '../../..', CASE_JSON_SCHEMA_FILE), 'utf8');
    expect(checkedIn).toBe(caseJsonSchemaText());
  });
});
