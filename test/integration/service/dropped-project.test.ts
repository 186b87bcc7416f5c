// projects:openDropped gets the picker's checks: the path main receives (from
// the preload, off a dropped File) opens a folder, and is refused with the
// picker's reasons for a file, a folder holding ~/.mino, a protected folder,
// and with its own for no path or a relative one.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkProjectDir } from '../../../src/main/core/projects/checkProject';
import { DROPPED_WITHOUT_PATH } from '../../../src/main/service/features/projects';
import type { Project } from '../../../src/shared/ipc';
import { makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness;
afterEach(async () => h?.cleanup());

describe('projects:openDropped', () => {
  it('opens a dropped folder as the picker would, and remembers it', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    expect(await client.value('projects:openDropped', { path: h.project })).toEqual({ opened: true, project: { path: h.project, name: 'project' } });
    expect(await client.value<Project>('projects:current')).toEqual({ path: h.project, name: 'project' });
    expect(JSON.stringify(await client.value('projects:recent'))).toContain(JSON.stringify(h.project));
  });

  it('refuses what the picker refuses, with the same reason, and leaves the window without a project', async () => {
    h = await makeServiceHarness();
    await fs.mkdir(path.join(h.project, '.git'));
    const refusals = [h.file('greet.go'), h.root, path.join(h.project, '.git'), path.join(h.root, 'missing')];
    for (const dropped of refusals) {
      const client = h.connect(`w-${refusals.indexOf(dropped)}`);
      const picked = await checkProjectDir(dropped, h.home);
      expect(picked.ok, dropped).toBe(false);
      if (picked.ok) continue;
      expect(await client.call('projects:openDropped', { path: dropped }), dropped).toEqual({ ok: false, error: picked.reason });
      expect(await client.value('projects:current')).toBeNull();
    }
  });

  it('refuses a drop without a path and a relative path, saying what to do', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    expect(await client.call('projects:openDropped', { path: '' })).toEqual({ ok: false, error: DROPPED_WITHOUT_PATH });
    expect(await client.call('projects:openDropped', { path: 'project' })).toMatchObject({ ok: false, error: expect.stringContaining('"project" is not a full path') });
    expect(await client.value('projects:current')).toBeNull();
  });
});
