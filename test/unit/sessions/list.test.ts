import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../../src/main/core/sessions/list';
import { newSessionId } from '../../../src/main/core/sessions/ids';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { makeTempHome, type TempHome } from './fixtures';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome();
});
afterEach(async () => {
  await t.cleanup();
});

/** Writes a session with fixed times so the order is certain. */
async function sessionAt(projectDir: string, created: string, prompts: Array<[string, string]>): Promise<string> {
  const log = await SessionLog.create(t.home, projectDir);
  const header = JSON.parse((await fs.readFile(log.file, 'utf8')).trim()) as Record<string, unknown>;
  const lines = [JSON.stringify({ ...header, createdAt: created }), ...prompts.map(([text, at]) => JSON.stringify({ type: 'user', text, at }))];
  await log.close();
  await fs.writeFile(log.file, `${lines.join('\n')}\n`);
  return log.id;
}

describe('listSessions', () => {
  it('lists one project’s sessions with id, first prompt and times, most recently updated first', async () => {
    const other = path.join(path.dirname(t.project), 'other');
    await fs.mkdir(other);
    const older = await sessionAt(t.project, '2024-01-01T00:00:00.000Z', [
      ['fix the build', '2024-01-01T00:01:00.000Z'],
      ['and the tests', '2024-03-01T00:00:00.000Z'],
    ]);
    const newer = await sessionAt(t.project, '2024-02-01T00:00:00.000Z', [['add a README', '2024-04-01T00:00:00.000Z']]);
    const empty = await sessionAt(t.project, '2024-01-15T00:00:00.000Z', []);
    await sessionAt(other, '2024-05-01T00:00:00.000Z', [['elsewhere', '2024-05-01T00:00:01.000Z']]);

    expect(await listSessions(t.home, t.project)).toEqual([
      { id: newer, projectDir: t.project, firstPrompt: 'add a README', title: null, createdAt: '2024-02-01T00:00:00.000Z', updatedAt: '2024-04-01T00:00:00.000Z' },
      { id: older, projectDir: t.project, firstPrompt: 'fix the build', title: null, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-03-01T00:00:00.000Z' },
      { id: empty, projectDir: t.project, firstPrompt: '', title: null, createdAt: '2024-01-15T00:00:00.000Z', updatedAt: '2024-01-15T00:00:00.000Z' },
    ]);
    expect((await listSessions(t.home)).map((s) => s.firstPrompt)).toEqual(['elsewhere', 'add a README', 'fix the build', '']);
  });

  it('matches a project reached through a symlink by its real path', async () => {
    const id = await sessionAt(t.project, '2024-01-01T00:00:00.000Z', [['hi', '2024-01-01T00:00:01.000Z']]);
    const link = path.join(path.dirname(t.project), 'link-to-project');
    await fs.symlink(t.project, link);
    expect((await listSessions(t.home, link)).map((s) => s.id)).toEqual([id]);
    expect(await listSessions(t.home, `${t.project}/sub`)).toEqual([]);
  });

  it('takes updatedAt from the last good record when the last line is truncated', async () => {
    const id = await sessionAt(t.project, '2024-01-01T00:00:00.000Z', [['hi', '2024-01-02T00:00:00.000Z']]);
    await fs.appendFile(path.join(t.sessionsDir, `${id}.jsonl`), '{"type":"user","te');
    expect((await listSessions(t.home, t.project))[0]?.updatedAt).toBe('2024-01-02T00:00:00.000Z');
  });

  it('returns nothing when ~/.mino does not exist yet, and skips files that are not session logs', async () => {
    expect(await listSessions(t.home)).toEqual([]);
    await fs.mkdir(t.sessionsDir, { recursive: true });
    await fs.writeFile(path.join(t.sessionsDir, 'notes.txt'), 'x');
    await fs.writeFile(path.join(t.sessionsDir, `${newSessionId()}.jsonl`), 'not json\n');
    expect(await listSessions(t.home)).toEqual([]);
  });
});

describe('newSessionId', () => {
  it('makes distinct ids of 32 lowercase hex characters', () => {
    const ids = new Set(Array.from({ length: 1000 }, newSessionId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });
});
