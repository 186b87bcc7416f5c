// What a run saves beside its home and project, and scoring reads back:
// run.json (the case as it ran, the session, how each turn ended, the digest
// of every file at the start) and score.json (the checks, as last scored).
// A saved run can be scored again without the case file or any model.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { TURN_END_STATUSES } from '../../../shared/domain';
import { sessionFile } from '../sessions/ids';
import { CaseSchema, type EvalCase } from './caseSchema';
import type { FileDigests } from './caseProject';

/** The names inside a run's folder. */
export const RUN_FILES = {
  record: 'run.json',
  score: 'score.json',
  requests: 'requests.jsonl',
  home: 'home',
  project: 'project',
} as const;

export const TurnEndSchema = z.object({ status: z.enum(TURN_END_STATUSES), message: z.string().optional() });
export type TurnEnd = z.infer<typeof TurnEndSchema>;

export const RunRecordSchema = z.object({
  case: CaseSchema,
  run: z.number().int().positive(),
  model: z.enum(['live', 'scripted']),
  /** The session the run wrote, in the run's home. */
  sessionId: z.string().optional(),
  /** The project's real path while it ran: the ledger is kept under it. */
  projectDir: z.string().optional(),
  before: z.record(z.string(), z.string()),
  turns: z.array(TurnEndSchema),
  /** Why the run could not be carried out (a fixture missing, no live service, ...). */
  error: z.string().optional(),
});
export type RunRecord = Omit<z.infer<typeof RunRecordSchema>, 'case' | 'before'> & { case: EvalCase; before: FileDigests };

export async function writeRunRecord(runDir: string, record: RunRecord): Promise<void> {
  await fs.writeFile(path.join(runDir, RUN_FILES.record), `${JSON.stringify(record, null, 2)}\n`);
}

export async function readRunRecord(runDir: string): Promise<RunRecord> {
  const file = path.join(runDir, RUN_FILES.record);
  const parsed = RunRecordSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not the record of a mino eval run: ${parsed.error.issues[0]?.message ?? 'unreadable'}.`);
  return parsed.data;
}

/** The session log a run wrote, which the desktop (with HOME set to the run's home) opens like any session. */
export function runSessionLog(runDir: string, record: Pick<RunRecord, 'sessionId'>): string | null {
  return record.sessionId ? sessionFile(path.join(runDir, RUN_FILES.home), record.sessionId) : null;
}
