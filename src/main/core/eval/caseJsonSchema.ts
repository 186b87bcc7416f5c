// The JSON Schema of the case file, made from the zod schemas that check it
// (caseSchema.ts), so an editor can complete and check a case file as it is
// typed. schemas/eval-case.schema.json is this, checked in; a test keeps the
// two equal. To write it again:
//   npx tsx -e "require('./src/main/core/eval/caseJsonSchema.ts').writeCaseJsonSchema()"
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { CaseSchema } from './caseSchema';

export const CASE_JSON_SCHEMA_FILE = 'schemas/eval-case.schema.json';

export function caseJsonSchema(): Record<string, unknown> {
  const file = z.strictObject({ cases: z.array(CaseSchema).min(1) });
  const schema = z.toJSONSchema(file, { io: 'input', unrepresentable: 'any' });
  return {
    ...schema,
    $id: 'https://mino.dev/schemas/eval-case.schema.json',
    title: 'mino eval case file',
    description: 'Cases for `mino eval`: a project, the question(s), the mode, how asks are answered, the model (live or scripted) and the checks scored from what each run saved. See docs/eval.md.',
  };
}

export function caseJsonSchemaText(): string {
  return `${JSON.stringify(caseJsonSchema(), null, 2)}\n`;
}

/** Writes the schema file under `repoDir` (default: the current directory, the repository's root). */
export async function writeCaseJsonSchema(repoDir = process.cwd()): Promise<void> {
  await fs.writeFile(path.join(repoDir, CASE_JSON_SCHEMA_FILE), caseJsonSchemaText());
}
