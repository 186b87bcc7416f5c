import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decide, factsFor } from '../../../src/main/core/policy/decide';
import { PERMISSION_MODES } from '../../../src/shared/domain';
import { discoverSkills } from '../../../src/main/core/skills/discoverSkills';
import { skillViewTool } from '../../../src/main/core/tools/skillView';
import type { ToolContext } from '../../../src/main/core/tools/types';
import { makeSkillsFixture, skillText, type SkillsFixture } from './skillsFixture';

let t: SkillsFixture;
let ctx: ToolContext;
beforeEach(async () => {
  t = await makeSkillsFixture();
  await t.write('project', 'pdf/SKILL.md', skillText('pdf', 'Work with PDFs.', '# PDF\n\nRun scripts/extract.py.\n'));
  await t.write('project', 'pdf/reference.md', '# Reference\n');
  await t.write('project', 'pdf/scripts/extract.py', 'print("x")\n');
  await t.write('project', 'pdf/.env', 'TOKEN=secret-in-skill\n');
  await t.write('personal', 'notes/SKILL.md', skillText('notes', 'My notes.', 'Personal body.\n'));
  await fs.symlink(path.join(t.project, 'outside.txt'), path.join(t.skillsDir('project'), 'pdf', 'link.md'));
  await fs.writeFile(path.join(t.project, 'outside.txt'), 'OUTSIDE\n');
  ctx = { projectDir: t.project, homeDir: t.home, skills: (await discoverSkills(t.project, t.home)).skills };
});
afterEach(async () => t.cleanup());

async function view(raw: unknown) {
  const validation = skillViewTool.validate(raw);
  if (!validation.ok) return { status: 'invalid_arguments' as const, output: validation.reason, decision: null };
  const { decision, reason } = decide(factsFor(skillViewTool, validation.args), 'manual');
  if (decision === 'deny') return { status: 'denied' as const, output: reason, decision };
  const inspection = await skillViewTool.inspect(validation.args, ctx);
  if (!inspection.ok) throw new Error('inspection of a read cannot fail');
  return { ...(await skillViewTool.execute(validation.args, null, ctx)), decision };
}

describe('skill_view', () => {
  it('without path returns SKILL.md and lists the other files, marking links and protected names unreadable', async () => {
    const result = await view({ name: 'pdf' });
    expect(result.status).toBe('completed');
    expect(result.output).toBe(
      [
        skillText('pdf', 'Work with PDFs.', '# PDF\n\nRun scripts/extract.py.').trimEnd(),
        '',
        '---',
        'Other files of this skill (read one with skill_view {"name": "pdf", "path": "<file>"}):',
        '- .env (protected; cannot be read)',
        '- link.md (symbolic link; cannot be read)',
        '- reference.md',
        '- scripts/extract.py',
      ].join('\n'),
    );
    expect(result.output).not.toContain('secret-in-skill');
  });

  it('with path returns that file under the rules of read_file, for project and personal skills', async () => {
    expect(await view({ name: 'pdf', path: 'scripts/extract.py' })).toMatchObject({ status: 'completed', output: 'print("x")\n' });
    expect(await view({ name: 'pdf', path: 'scripts/../reference.md' })).toMatchObject({ status: 'completed', output: '# Reference\n' });
    expect((await view({ name: 'notes' })).output).toContain('Personal body.');
  });

  it('is a restricted read: allowed in every mode without asking', () => {
    const validation = skillViewTool.validate({ name: 'pdf', path: 'reference.md' });
    if (!validation.ok) throw new Error(validation.reason);
    for (const mode of PERMISSION_MODES) {
      expect(decide(factsFor(skillViewTool, validation.args), mode)).toMatchObject({ decision: 'allow', shown: false });
    }
  });

  it('refuses .., absolute paths, links and protected names as read_file does, and never reads them', async () => {
    expect(await view({ name: 'pdf', path: '../../../outside.txt' })).toMatchObject({
      status: 'invalid_arguments',
      output: expect.stringMatching(/leaves the skill folder/),
    });
    expect(await view({ name: 'pdf', path: '/etc/passwd' })).toMatchObject({ status: 'invalid_arguments', output: expect.stringMatching(/is absolute/) });
    expect(await view({ name: 'pdf', path: '.' })).toMatchObject({ status: 'invalid_arguments', output: expect.stringMatching(/names the skill folder itself/) });
    const link = await view({ name: 'pdf', path: 'link.md' });
    expect(link).toMatchObject({ status: 'invalid_arguments', output: expect.stringMatching(/is a symbolic link/) });
    expect(link.output).not.toContain('OUTSIDE');
    for (const protectedPath of ['.env', '.ENV', 'keys/id_rsa', '.git/config', '.ssh/x']) {
      const refused = await view({ name: 'pdf', path: protectedPath });
      expect(refused, protectedPath).toMatchObject({ status: 'denied', output: expect.stringMatching(/is a protected path/) });
      expect(refused.output).not.toContain('secret-in-skill');
    }
  });

  it('refuses a skill the session does not offer and a name that is not a skill name', async () => {
    expect(await view({ name: 'nope' })).toEqual({
      status: 'invalid_arguments',
      output: 'There is no skill named nope. The skills of this session are: notes, pdf.',
      decision: 'allow',
    });
    expect(await view({ name: '../pdf' })).toMatchObject({ status: 'invalid_arguments', output: expect.stringMatching(/name may contain only/) });
    expect(await view({ name: 'pdf', path: 'missing.md' })).toMatchObject({
      status: 'invalid_arguments',
      output: 'missing.md does not exist in the skill pdf. Call skill_view {"name": "pdf"} to see its files.',
    });
  });

  it('validates without the filesystem, so a recorded call still validates after the skill is gone', async () => {
    await fs.rm(t.skillsDir('project'), { recursive: true });
    expect(skillViewTool.validate({ name: 'pdf', path: 'reference.md' })).toEqual({ ok: true, args: { name: 'pdf', path: 'reference.md' } });
    expect(skillViewTool.validate({ name: 'pdf', extra: 1 }).ok).toBe(false);
  });
});
