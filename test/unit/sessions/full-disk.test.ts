// A full disk may stop a session from starting or from being repaired, but
// must never leave a log that cannot be loaded, nor a partial or second copy
// of a damaged tail. The disk is a real, small tmpfs (mounting needs root on
// Linux); where none can be mounted those tests are skipped, and say so.
import { execFileSync } from 'node:child_process';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { loadSession } from '../../../src/main/core/sessions/load';
import { SessionLog, SessionSaveError } from '../../../src/main/core/sessions/sessionLog';

let base: string;
let home: string;
let mounted = false;
const TAIL = Buffer.from(`{"type":"user","text":"${'x'.repeat(40_000)}`);

beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-full-'));
  home = path.join(base, 'home');
  await fs.mkdir(home);
  mounted = false;
  if (process.platform === 'linux' && process.getuid?.() === 0) {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', home], { stdio: 'ignore' });
      mounted = true;
    } catch {
      // No permission to mount here (a container without CAP_SYS_ADMIN): the full-disk tests skip.
    }
  }
});
afterEach(async () => {
  if (mounted) execFileSync('umount', [home]);
  await fs.rm(base, { recursive: true, force: true });
});

const sessionsDir = () => path.join(home, '.mino', 'sessions');

/** Fills the disk holding `home` until a write fails for lack of space; returns the filler to free it later. */
function fillDisk(): string {
  const filler = path.join(home, 'filler');
  const fd = fsSync.openSync(filler, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) fsSync.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fsSync.closeSync(fd);
  }
  return filler;
}

async function sessionWithBrokenTail(): Promise<string> {
  const log = await SessionLog.create(home, base);
  await log.append({ type: 'user', text: 'hello' });
  await log.close();
  await fs.appendFile(path.join(sessionsDir(), `${log.id}.jsonl`), TAIL);
  return log.id;
}

const corruptCopies = async (id: string) => (await fs.readdir(sessionsDir())).filter((n) => n.startsWith(`${id}.jsonl.corrupt-`));

describe('a full disk', () => {
  it('refuses to start a session without leaving an empty log behind', async (ctx) => {
    if (!mounted) ctx.skip();
    await fs.mkdir(sessionsDir(), { recursive: true });
    fillDisk();
    await expect(SessionLog.create(home, base)).rejects.toThrow(SessionSaveError);
    await expect(SessionLog.create(home, base)).rejects.toThrow(/the disk is full/);
    expect(await fs.readdir(sessionsDir())).toEqual([]);
  });

  it('refuses to repair a broken tail without leaving a partial copy, and copies it whole once there is space', async (ctx) => {
    if (!mounted) ctx.skip();
    const id = await sessionWithBrokenTail();
    const filler = fillDisk();
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(SessionLog.openForAppend(home, id)).rejects.toThrow(/the disk is full/);
      expect(await fs.readdir(sessionsDir())).toEqual([`${id}.jsonl`]);
    }
    await fs.rm(filler);
    const log = await SessionLog.openForAppend(home, id);
    await log.close();
    const copies = await corruptCopies(id);
    expect(copies).toHaveLength(1);
    expect(await fs.readFile(path.join(sessionsDir(), copies[0]!))).toEqual(TAIL);
    const loaded = await loadSession(home, id, new ToolRegistry(BUILTIN_TOOLS).validateCall);
    expect(loaded.records.map((r) => r.type)).toEqual(['session', 'user']);
  });
});

describe('a repair interrupted after its copy', () => {
  it('reuses the complete copy an earlier repair made instead of making a second', async () => {
    const id = await sessionWithBrokenTail();
    // What a repair that copied the tail and then could not truncate the log leaves.
    const earlier = path.join(sessionsDir(), `${id}.jsonl.corrupt-2026-01-01T00-00-00-000Z`);
    await fs.writeFile(earlier, TAIL);
    const log = await SessionLog.openForAppend(home, id);
    expect(log.setAside?.file).toBe(earlier);
    await log.close();
    expect(await corruptCopies(id)).toEqual([path.basename(earlier)]);
  });
});
