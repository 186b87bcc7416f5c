// Reading a case file: YAML, then each case checked on its own, so every bad
// field is reported with the case it belongs to ("case \"greet\" (cases[1]):
// expect.file_contains: ..."), all of them at once, and nothing runs. The YAML
// parser is loaded here, on first use, not whenever the `mino` command starts.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { issueText } from '../../../shared/zodIssues';
import { CaseFileSchema, CaseSchema, type EvalCase } from './caseSchema';

/** A case file that cannot be used: every problem, one line each. */
export class CaseFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`The case file ${file} cannot be used:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'CaseFileError';
  }
}

export interface CaseFile {
  /** As given (absolute). */
  file: string;
  /** Where `fixture` folders are found: the case file's folder. */
  dir: string;
  cases: EvalCase[];
}

/** Far more than any case file needs; a larger one is not a case file. */
const MAX_CASE_FILE_BYTES = 4 * 1024 * 1024;

export async function readCaseFile(file: string): Promise<CaseFile> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    const stat = await fs.stat(absolute);
    if (!stat.isFile()) throw new CaseFileError(absolute, ['it is not a file']);
    if (stat.size > MAX_CASE_FILE_BYTES) throw new CaseFileError(absolute, [`it is ${stat.size} bytes; a case file is at most ${MAX_CASE_FILE_BYTES}`]);
    text = await fs.readFile(absolute, 'utf8');
  } catch (error) {
    if (error instanceof CaseFileError) throw error;
    throw new CaseFileError(absolute, [`it cannot be read: ${(error as Error).message}`]);
  }
  return { file: absolute, dir: path.dirname(absolute), cases: await parseCases(text, absolute) };
}

/** The cases of a case file's text; throws CaseFileError naming every problem. */
export async function parseCases(text: string, file: string): Promise<EvalCase[]> {
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new CaseFileError(
      file,
      doc.errors.map((error) => {
        const at = error.linePos?.[0];
        const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/u, '');
        return at ? `line ${at.line}, column ${at.col}: ${message}` : message;
      }),
    );
  }
  const top = CaseFileSchema.safeParse(doc.toJS());
  if (!top.success) throw new CaseFileError(file, top.error.issues.map((issue) => issueText(issue, { quotePaths: true })));
  const problems: string[] = [];
  const cases: EvalCase[] = [];
  top.data.cases.forEach((raw, index) => {
    const parsed = CaseSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((issue) => `${caseLabel(raw, index)}: ${issueText(issue, { quotePaths: true })}`));
    } else if (cases.some((c) => c.name === parsed.data.name)) {
      problems.push(`${caseLabel(raw, index)}: "name": another case is already named "${parsed.data.name}"; each case needs its own name`);
    } else cases.push(parsed.data);
  });
  if (problems.length > 0) throw new CaseFileError(file, problems);
  return cases;
}

/** `case "greet" (cases[1])`, or `cases[1]` for a case without a usable name. */
function caseLabel(raw: unknown, index: number): string {
  const name = typeof raw === 'object' && raw !== null && 'name' in raw && typeof raw.name === 'string' ? raw.name : null;
  return name === null ? `cases[${index}]` : `case "${name}" (cases[${index}])`;
}
