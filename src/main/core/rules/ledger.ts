// The ledger: every decision on a live tool call, appended to
// ~/.mino/ledger/<project key>.jsonl (private) before the call runs, and the
// person's answer to an ask after it. What decided is named: a protected
// rule, the person's rule, the mode, the person. A ledger that cannot be
// written stops the call, as a session log that cannot be written does.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { LedgerEntrySchema, type LedgerEntry } from '../../../shared/ledger';
import { fsErrorReason } from '../config/homeErrors';
import { ensurePrivateDir, minoPaths, PRIVATE_FILE_MODE } from '../config/minoHome';
import { SessionSaveError } from '../sessions/sessionErrors';

export { LedgerEntrySchema, type LedgerBy, type LedgerEntry } from '../../../shared/ledger';

/** A command is kept whole up to this; a longer one is cut and says so. */
const MAX_TARGET_CHARS = 4000;

/** ~/.mino/ledger/<name>-<hash of the real path>.jsonl: one file per project, the name only for a person browsing. */
export function ledgerFile(homeDir: string, projectDir: string): string {
  const digest = createHash('sha256').update(projectDir).digest('hex').slice(0, 16);
  const name = path.basename(projectDir).replace(/[^a-zA-Z0-9._-]/gu, '_').slice(0, 40) || 'root';
  return path.join(minoPaths(homeDir).root, 'ledger', `${name}-${digest}.jsonl`);
}

export function ledgerTarget(text: string): string {
  return text.length <= MAX_TARGET_CHARS ? text : `${text.slice(0, MAX_TARGET_CHARS)}… (${text.length} characters, cut)`;
}

/** Appends one entry, synced to disk. Throws SessionSaveError (the turn stops) when it cannot. */
export async function appendLedger(homeDir: string, projectDir: string, entry: LedgerEntry): Promise<void> {
  const file = ledgerFile(homeDir, projectDir);
  try {
    await ensurePrivateDir(path.dirname(file));
    const handle = await fs.open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(`${JSON.stringify(entry)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new SessionSaveError(
      `Could not write the decision ledger ${file}: ${fsErrorReason(error)}. The call was not run and the turn stopped. Check that ~/.mino/ledger is writable and its disk has room, then try again.`,
      { cause: error },
    );
  }
}

/** The entries of one project's ledger, oldest first; a damaged line is reported, the others kept. */
export async function readLedger(homeDir: string, projectDir: string): Promise<{ entries: LedgerEntry[]; problems: string[] }> {
  const file = ledgerFile(homeDir, projectDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], problems: [] };
    throw error;
  }
  const entries: LedgerEntry[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = safeJson(line);
    const entry = LedgerEntrySchema.safeParse(parsed);
    if (entry.success) entries.push(entry.data);
    else problems.push(`${file}, line ${index + 1}: not a ledger entry; skipped.`);
  });
  return { entries, problems };
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    // ignore: a line cut by a crash is reported as not an entry by the schema check
    return null;
  }
}
