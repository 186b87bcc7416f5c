import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills, notOfferedLine, skillsView } from '../../../src/main/core/skills/discoverSkills';
import { makeSkillsFixture, skillText, type SkillsFixture } from './skillsFixture';

let t: SkillsFixture;
beforeEach(async () => {
  t = await makeSkillsFixture();
});
afterEach(async () => t.cleanup());

const reasons = async () => Object.fromEntries((await discoverSkills(t.project, t.home)).notOffered.map((n) => [`${n.origin}:${n.folder}`, n.reason]));

describe('skill discovery', () => {
  it('offers valid project and personal skills, each with its origin and location, sorted by name', async () => {
    await t.write('project', 'release-notes/SKILL.md', skillText('release-notes', 'Write release notes from the changelog.'));
    await t.write('personal', 'commit-style/SKILL.md', skillText('commit-style', 'How I like commit messages.', '# c\n', 'allowed-tools: Bash(git:*)\n'));
    const view = skillsView(await discoverSkills(t.project, t.home));
    expect(view).toEqual({
      skills: [
        { name: 'commit-style', description: 'How I like commit messages.', origin: 'personal', location: '~/.mino/skills/commit-style/SKILL.md', allowedTools: ['Bash(git:*)'] },
        { name: 'release-notes', description: 'Write release notes from the changelog.', origin: 'project', location: '.agents/skills/release-notes/SKILL.md' },
      ],
      notOffered: [],
    });
  });

  it('finds nothing, and reports nothing, when neither skills directory exists', async () => {
    expect(await discoverSkills(t.project, t.home)).toEqual({ skills: [], notOffered: [] });
  });

  it('lets a project skill win over a personal one of the same name, and says the personal one is not offered', async () => {
    await t.write('project', 'deploy/SKILL.md', skillText('deploy', 'Project deploy steps.'));
    await t.write('personal', 'deploy/SKILL.md', skillText('deploy', 'My deploy steps.'));
    const set = await discoverSkills(t.project, t.home);
    expect(set.skills.map((s) => [s.name, s.origin, s.description])).toEqual([['deploy', 'project', 'Project deploy steps.']]);
    expect(set.notOffered).toEqual([
      {
        folder: 'deploy',
        origin: 'personal',
        location: '~/.mino/skills/deploy/SKILL.md',
        reason: 'the project skill of the same name (.agents/skills/deploy) is offered instead',
      },
    ]);
  });

  it('does not offer an invalid name, a name not matching the folder, a missing or over-long description, or broken YAML, and says why', async () => {
    await t.write('project', 'Bad_Name/SKILL.md', skillText('Bad_Name', 'd'));
    await t.write('project', 'other-folder/SKILL.md', skillText('the-name', 'd'));
    await t.write('project', 'no-description/SKILL.md', '---\nname: no-description\n---\nbody\n');
    await t.write('project', 'long/SKILL.md', skillText('long', 'x'.repeat(1025)));
    await t.write('project', 'broken/SKILL.md', '---\nname: broken\ndescription: [oops\n---\n');
    await t.write('project', 'empty-folder/notes.md', 'no SKILL.md here');
    await t.write('project', 'good/SKILL.md', skillText('good', 'Fine.'));
    const set = await discoverSkills(t.project, t.home);
    expect(set.skills.map((s) => s.name)).toEqual(['good']);
    const why = await reasons();
    expect(why['project:Bad_Name']).toMatch(/name may contain only lowercase letters/);
    expect(why['project:other-folder']).toBe('name "the-name" does not match its folder name "other-folder"; they must be equal');
    expect(why['project:no-description']).toBe('description is missing');
    expect(why['project:long']).toBe('description is longer than 1024 characters');
    expect(why['project:broken']).toMatch(/^the front matter is not valid YAML/);
    expect(why['project:empty-folder']).toBe('the folder has no SKILL.md');
    expect(notOfferedLine(set.notOffered.find((n) => n.folder === 'long')!)).toBe(
      'skill "long" (project, .agents/skills/long/SKILL.md) is not offered: description is longer than 1024 characters.',
    );
  });

  it('does not follow a symlinked skill folder, a symlinked SKILL.md, or a symlinked skills directory', async () => {
    const elsewhere = path.join(t.base, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.writeFile(path.join(elsewhere, 'SKILL.md'), skillText('linked', 'Should never be read.'));
    await fs.mkdir(t.skillsDir('project'), { recursive: true });
    await fs.symlink(elsewhere, path.join(t.skillsDir('project'), 'linked'));
    await fs.mkdir(path.join(t.skillsDir('project'), 'file-link'));
    await fs.symlink(path.join(elsewhere, 'SKILL.md'), path.join(t.skillsDir('project'), 'file-link', 'SKILL.md'));
    // The whole personal skills directory is a link.
    await fs.symlink(elsewhere, t.skillsDir('personal'));
    const set = await discoverSkills(t.project, t.home);
    expect(set.skills).toEqual([]);
    const why = await reasons();
    expect(why['project:linked']).toBe('the skill folder is a symbolic link; skills are read only from real folders');
    expect(why['project:file-link']).toMatch(/is a symbolic link/);
    expect(why['personal:~/.mino/skills']).toMatch(/symbolic link/);
  });

  it('does not offer a SKILL.md over the 64 KiB cap', async () => {
    await t.write('project', 'huge/SKILL.md', skillText('huge', 'Big.', 'x'.repeat(64 * 1024)));
    const set = await discoverSkills(t.project, t.home);
    expect(set.skills).toEqual([]);
    expect((await reasons())['project:huge']).toMatch(/^\.agents\/skills\/huge\/SKILL\.md is 65 KiB; file tools handle files of at most 64 KiB$/);
  });

  it('never reads a skill folder whose path falls under a protected rule', async () => {
    // A folder named .ssh would be a protected directory for read_file too.
    await t.write('project', '.ssh/SKILL.md', skillText('ssh', 'd'));
    const set = await discoverSkills(t.project, t.home);
    expect(set.skills).toEqual([]);
    expect((await reasons())['project:.ssh']).toBe('its path falls under the protected rule .ssh/, so it is never read');
  });

  it('reads no project skills where the file tools are off (a project that contains ~/.mino)', async () => {
    await fs.mkdir(path.join(t.home, '.agents', 'skills', 'x'), { recursive: true });
    await fs.writeFile(path.join(t.home, '.agents', 'skills', 'x', 'SKILL.md'), skillText('x', 'd'));
    expect(await discoverSkills(t.home, t.home)).toEqual({ skills: [], notOffered: [] });
  });
});
