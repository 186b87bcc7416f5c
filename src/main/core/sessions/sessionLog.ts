// The append-only session log: one JSON record per line, each one fsynced
// before append() returns, so what the loop acts on is already on disk.
import { constants, existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fsErrorReason } from '../config/homeErrors';
import { ensureMinoHome, PRIVATE_FILE_MODE, privateTempPath } from '../config/minoHome';
import { newSessionId, sessionFile } from './ids';
import { readSessionFile } from './load';
import { brokenTailReason, splitLog } from './logLines';
import { SESSION_FORMAT_VERSION, SessionRecordSchema, type SessionRecord, type SessionRecordWithoutAt } from './records';
import { SessionLoadError, SessionSaveError } from './sessionErrors';
import { log as trail } from '../log/log';
import { issuesText } from '../../../shared/zodIssues';

export { SessionLoadError, SessionSaveError };

export interface SetAsideTail {
  line: number;
  message: string;
  /** Where the broken bytes were moved: <id>.jsonl.corrupt-<timestamp>. */
  file: string;
}

export class SessionLog {
  readonly id: string;
  readonly file: string;
  /** Set when opening found a broken last line and moved it aside. */
  readonly setAside?: SetAsideTail;
  private handle: fs.FileHandle | undefined;
  private queue: Promise<void> = Promise.resolve();
  private failure: SessionSaveError | undefined;
  /** Records in the file, counting those still being written: the next record's position. */
  private records: number;

  private constructor(id: string, file: string, handle: fs.FileHandle, records: number, setAside?: SetAsideTail) {
    this.id = id;
    this.file = file;
    this.handle = handle;
    this.records = records;
    if (setAside) this.setAside = setAside;
  }

  /** The position the next appended record will have (0 is the header), as compaction records name records. */
  get nextPosition(): number {
    return this.records;
  }

  /** Starts a new session for a project and saves its header. */
  static async create(homeDir: string, projectDir: string): Promise<SessionLog> {
    await ensureMinoHome(homeDir);
    const id = newSessionId();
    const file = sessionFile(homeDir, id);
    let handle: fs.FileHandle;
    try {
      const header = SessionRecordSchema.parse({
        type: 'session',
        version: SESSION_FORMAT_VERSION,
        id,
        projectDir: await realProjectDir(projectDir),
        createdAt: new Date().toISOString(),
      });
      // The log appears with its header whole, or not at all: on a full disk a
      // header appended to a fresh file would leave an empty log that never loads.
      await publishNewPrivateFile(file, Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'));
      await syncDirectory(path.dirname(file));
      handle = await fs.open(file, constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      // No turn has begun, so the words are about starting.
      throw new SessionSaveError(`Could not start a session log at ${file}: ${describe(error)}. Check that ~/.mino/sessions is writable and its disk has room, then try again.`, { cause: error });
    }
    // The header is record 0.
    return new SessionLog(id, file, handle, 1);
  }

  /**
   * Reopens a saved session to add to it. A truncated or corrupt last line is
   * moved to <id>.jsonl.corrupt-<timestamp> first, so nothing is lost and
   * the next record starts on a line of its own. `alreadyRead` is the
   * content a caller has just loaded, so the file is not read twice; if the
   * file no longer has that size, nothing is repaired and opening fails.
   */
  static async openForAppend(homeDir: string, id: string, alreadyRead?: Buffer): Promise<SessionLog> {
    await ensureMinoHome(homeDir);
    const file = sessionFile(homeDir, id);
    let content: Buffer;
    try {
      content = alreadyRead ?? (await readSessionFile(homeDir, id)).content;
    } catch (error) {
      if (error instanceof SessionLoadError) throw error;
      throw new SessionLoadError(`Could not open session ${id} (${file}): ${describe(error)}.`, { cause: error });
    }
    const lines = splitLog(content);
    const last = lines.at(-1);
    if (!last || (lines.length === 1 && brokenTailReason(last) !== undefined)) {
      throw new SessionLoadError(`The session file ${file} has no readable header line, so it cannot be continued. Start a new session.`, { line: 1 });
    }

    const handle = await fs.open(file, constants.O_WRONLY | constants.O_APPEND);
    let setAside: SetAsideTail | undefined;
    try {
      if (alreadyRead && (await handle.stat()).size !== alreadyRead.length) {
        throw new SessionLoadError(`The session file ${file} changed while it was being opened. Open the session again.`);
      }
      await handle.chmod(PRIVATE_FILE_MODE);
      const reason = brokenTailReason(last);
      if (reason !== undefined) {
        const tail = content.subarray(last.start);
        // A repair that copied the tail but could not truncate it left that copy: reuse it, never make a second.
        const aside = (await existingCopy(file, tail)) ?? `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        if (!existsSync(aside)) await publishNewPrivateFile(aside, tail);
        await handle.truncate(last.start);
        await handle.sync();
        await syncDirectory(path.dirname(file));
        setAside = { line: last.number, file: aside, message: `Line ${last.number} was set aside in ${path.basename(aside)} because ${reason}; every record before it was kept.` };
        trail.warn('session.tail_set_aside', { session: id, line: last.number, bytes: content.length - last.start, reason, to: aside });
      } else if (!last.terminated) {
        // A complete record whose newline was lost: finish the line so the next record starts its own.
        await handle.write('\n');
        await handle.sync();
        trail.info('session.tail_newline_added', { session: id, line: last.number });
      }
    } catch (error) {
      await handle.close();
      if (error instanceof SessionLoadError) throw error;
      throw new SessionSaveError(`Could not repair the end of the session file ${file}: ${describe(error)}. Free disk space or fix the permissions of ~/.mino/sessions, then try again.`, { cause: error });
    }
    return new SessionLog(id, file, handle, setAside ? lines.length - 1 : lines.length, setAside);
  }

  /**
   * Saves one record (stamping `at` when missing) and waits until it is on
   * disk. Throws SessionSaveError if it cannot be saved; after that the log
   * refuses every further record, since the file may end in a partial line.
   * Resolves to the record's position.
   */
  append(record: SessionRecordWithoutAt | SessionRecord): Promise<number> {
    const stamped = 'at' in record || record.type === 'session' ? record : { ...record, at: new Date().toISOString() };
    const parsed = SessionRecordSchema.safeParse(stamped);
    if (!parsed.success) {
      return Promise.reject(new TypeError(`Refusing to save a malformed session record: ${issuesText(parsed.error)}.`));
    }
    const line = Buffer.from(`${JSON.stringify(parsed.data)}\n`, 'utf8');
    const position = this.records++;
    const run = this.queue.then(() => this.write(line)).then(() => position);
    // Keep the chain alive for later records; each caller still sees its own outcome.
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  private async write(line: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.handle) throw new SessionSaveError(`The session log ${this.file} is closed; the turn was stopped and nothing further was run.`);
    try {
      let offset = 0;
      while (offset < line.length) {
        const { bytesWritten } = await this.handle.write(line, offset, line.length - offset);
        offset += bytesWritten;
      }
      await this.handle.sync();
    } catch (error) {
      this.failure = new SessionSaveError(
        `Could not save to the session log ${this.file}: ${describe(error)}. The turn was stopped and nothing further was run. Free disk space or fix the permissions of ~/.mino/sessions, then reopen the session.`,
        { cause: error },
      );
      throw this.failure;
    }
  }
}

async function realProjectDir(projectDir: string): Promise<string> {
  try {
    return await fs.realpath(projectDir);
  } catch {
    return path.resolve(projectDir);
  }
}

/**
 * Creates `file` (which must not exist) with `content`, completely or not at
 * all: written and fsynced under a temporary name, then linked into place.
 */
export async function publishNewPrivateFile(file: string, content: Buffer): Promise<void> {
  // Named with this process's id, so the sweep at the next start can tell a dead writer's leftover (minoHome.ts).
  const temp = privateTempPath(file);
  const handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_FILE_MODE);
  try {
    try {
      await handle.chmod(PRIVATE_FILE_MODE); // the umask may have narrowed or widened the create mode
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.link(temp, file);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** An earlier set-aside copy of the session file that holds exactly `tail`, if there is one. */
async function existingCopy(file: string, tail: Buffer): Promise<string | null> {
  const prefix = `${path.basename(file)}.corrupt-`;
  const dir = path.dirname(file);
  for (const name of (await fs.readdir(dir)).filter((n) => n.startsWith(prefix)).sort()) {
    const candidate = path.join(dir, name);
    const stat = await fs.lstat(candidate);
    if (stat.isFile() && stat.size === tail.length && (await fs.readFile(candidate)).equals(tail)) return candidate;
  }
  return null;
}

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function describe(error: unknown): string {
  return fsErrorReason(error);
}
