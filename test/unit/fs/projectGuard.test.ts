import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINO_HOME_OVERLAP_MESSAGE, projectOverlapsMinoHome } from '../../../src/main/core/fs/projectGuard';
import { fileTools } from '../../../src/main/core/tools/fileTools';
import { listTree, makeTempProject, runApproved, type TempProject } from './tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  await t.cleanup();
});

describe('projectOverlapsMinoHome', () => {
  it('is true for the home directory itself', async () => {
    expect(await projectOverlapsMinoHome(t.home, t.home)).toBe(true);
  });

  it('is true for an ancestor of the home directory', async () => {
    expect(await projectOverlapsMinoHome(t.base, t.home)).toBe(true);
    expect(await projectOverlapsMinoHome('/', t.home)).toBe(true);
  });

  it('is true for a symlinked route to the home directory', async () => {
    const link = path.join(t.base, 'home-link');
    await fs.symlink(t.home, link);
    expect(await projectOverlapsMinoHome(link, t.home)).toBe(true);
    expect(await projectOverlapsMinoHome(t.home, link)).toBe(true);
  });

  it('is true when ~/.mino itself is a link into the project', async () => {
    await fs.rm(path.join(t.home, '.mino'), { recursive: true });
    await fs.mkdir(path.join(t.project, 'mino-data'));
    await fs.symlink(path.join(t.project, 'mino-data'), path.join(t.home, '.mino'));
    expect(await projectOverlapsMinoHome(t.project, t.home)).toBe(true);
  });

  it('is true for ~/.mino itself and any folder inside it, such as the session logs', async () => {
    const sessions = path.join(t.home, '.mino', 'sessions');
    await fs.mkdir(sessions, { recursive: true });
    expect(await projectOverlapsMinoHome(path.join(t.home, '.mino'), t.home)).toBe(true);
    expect(await projectOverlapsMinoHome(sessions, t.home)).toBe(true);
  });

  it('is false for a project beside or inside the home directory', async () => {
    expect(await projectOverlapsMinoHome(t.project, t.home)).toBe(false);
    const inside = path.join(t.home, 'code', 'app');
    await fs.mkdir(inside, { recursive: true });
    expect(await projectOverlapsMinoHome(inside, t.home)).toBe(false);
  });

  it('does not mistake a sibling with a common prefix for an ancestor', async () => {
    const home = path.join(t.base, 'projectile');
    await fs.mkdir(home);
    expect(await projectOverlapsMinoHome(t.project, home)).toBe(false);
  });
});

describe('file tools in a project that contains ~/.mino', () => {
  it('every tool returns an error result and reads or writes nothing', async () => {
    await fs.writeFile(path.join(t.home, '.mino', 'secrets.json'), '{"apiKey":"sk-secret"}');
    await fs.writeFile(path.join(t.home, 'notes.md'), 'old\n');
    const ctx = { projectDir: t.home, homeDir: t.home };
    const before = await listTree(t.home);
    const calls: Array<[string, unknown]> = [
      ['read_file', { path: '.mino/secrets.json' }],
      ['list_dir', { path: '.' }],
      ['write_file', { path: 'new.md', content: 'x', mode: 'create' }],
      ['write_file', { path: 'notes.md', content: 'x', mode: 'overwrite' }],
      ['edit_file', { path: 'notes.md', old_string: 'old', new_string: 'new' }],
    ];
    for (const [name, args] of calls) {
      const tool = fileTools.find((candidate) => candidate.name === name)!;
      const run = await runApproved(tool, args, ctx);
      expect(run.result.status, name).toBe('error');
      expect(run.result.output).toContain(MINO_HOME_OVERLAP_MESSAGE);
      expect(run.result.output).not.toContain('sk-secret');
      // Restricted reads have nothing to inspect and refuse in execute; writes refuse before anyone is asked.
      expect(run.step).toBe(tool.kind === 'restricted_read' ? 'execute' : 'inspect');
    }
    expect(await listTree(t.home)).toEqual(before);
    expect(await fs.readFile(path.join(t.home, 'notes.md'), 'utf8')).toBe('old\n');
  });

  it('refuses at execution too, even after an inspection that passed', async () => {
    await fs.writeFile(path.join(t.home, 'notes.md'), 'old\n');
    const edit = fileTools[3];
    const validation = edit.validate({ path: 'notes.md', old_string: 'old', new_string: 'new' });
    if (!validation.ok) throw new Error(validation.reason);
    const elsewhere = { projectDir: t.home, homeDir: path.join(t.base, 'other-home') };
    const inspection = await edit.inspect(validation.args, elsewhere);
    if (!inspection.ok) throw new Error(inspection.result.output);
    const result = await edit.execute(validation.args, inspection.state, { projectDir: t.home, homeDir: t.home });
    expect(result.status).toBe('error');
    expect(await fs.readFile(path.join(t.home, 'notes.md'), 'utf8')).toBe('old\n');
  });

  it('fails plainly when the project directory is named through a link', async () => {
    const link = path.join(t.base, 'project-link');
    await fs.symlink(t.project, link);
    await fs.writeFile(path.join(t.project, 'a.txt'), 'a\n');
    const run = await runApproved(fileTools[0], { path: 'a.txt' }, { projectDir: link, homeDir: t.home });
    expect(run.result.status).toBe('failed');
    expect(run.result.output).toContain('is not a resolved path');
  });

  it('also refuses a project reached through a symlink to the home directory', async () => {
    const link = path.join(t.base, 'home-link');
    await fs.symlink(t.home, link);
    const run = await runApproved(fileTools[0], { path: '.mino/secrets.json' }, { projectDir: link, homeDir: t.home });
    expect(run.result.status).toBe('error');
  });
});
