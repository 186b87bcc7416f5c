import { describe, expect, it } from 'vitest';
import { checkSkillFile } from '../../../src/main/core/skills/skillFile';

const skill = (frontMatter: string, body = '# Body\n') => `---\n${frontMatter}\n---\n${body}`;

describe('SKILL.md front matter', () => {
  it('accepts a valid skill and keeps the optional fields, with allowed-tools split into names', async () => {
    const checked = await checkSkillFile(
      skill('name: pdf-tools\ndescription: Extract text from PDF files.\nlicense: MIT\ncompatibility: needs python3\nmetadata:\n  author: ana\nallowed-tools: Bash(python3:*) Read'),
      'pdf-tools',
    );
    expect(checked).toEqual({
      ok: true,
      fields: {
        name: 'pdf-tools',
        description: 'Extract text from PDF files.',
        license: 'MIT',
        compatibility: 'needs python3',
        metadata: { author: 'ana' },
        allowedTools: ['Bash(python3:*)', 'Read'],
      },
      body: '# Body\n',
    });
  });

  it('refuses names that are not lowercase letters, digits and single hyphens, or longer than 64 characters', async () => {
    for (const name of ['PDF', 'pdf_tools', '-pdf', 'pdf-', 'pdf--tools', 'pdf tools', '"a.b"']) {
      const checked = await checkSkillFile(skill(`name: ${name}\ndescription: d`), name.replaceAll('"', ''));
      expect(checked.ok, name).toBe(false);
      if (!checked.ok) expect(checked.reason).toMatch(/name may contain only lowercase letters, digits and single hyphens/);
    }
    const long = 'a'.repeat(65);
    const checked = await checkSkillFile(skill(`name: ${long}\ndescription: d`), long);
    expect(checked).toEqual({ ok: false, reason: 'name is longer than 64 characters' });
    expect((await checkSkillFile(skill(`name: ${'a'.repeat(64)}\ndescription: d`), 'a'.repeat(64))).ok).toBe(true);
  });

  it('refuses a name that does not equal its folder name', async () => {
    expect(await checkSkillFile(skill('name: pdf\ndescription: d'), 'pdf-tools')).toEqual({
      ok: false,
      reason: 'name "pdf" does not match its folder name "pdf-tools"; they must be equal',
    });
  });

  it('refuses a missing, empty or over-long description', async () => {
    expect(await checkSkillFile(skill('name: a'), 'a')).toEqual({ ok: false, reason: 'description is missing' });
    expect(await checkSkillFile(skill('name: a\ndescription: "  "'), 'a')).toEqual({ ok: false, reason: 'description is empty' });
    expect(await checkSkillFile(skill(`name: a\ndescription: ${'x'.repeat(1025)}`), 'a')).toEqual({
      ok: false,
      reason: 'description is longer than 1024 characters',
    });
    expect((await checkSkillFile(skill(`name: a\ndescription: ${'x'.repeat(1024)}`), 'a')).ok).toBe(true);
  });

  it('refuses broken YAML, a front matter that is not a map, and a file without front matter', async () => {
    const broken = await checkSkillFile(skill('name: a\ndescription: [unclosed'), 'a');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.reason).toMatch(/^the front matter is not valid YAML \(/);
    const duplicate = await checkSkillFile(skill('name: a\nname: b\ndescription: d'), 'a');
    expect(duplicate.ok).toBe(false);
    expect(await checkSkillFile(skill('- a\n- b'), 'a')).toEqual({ ok: false, reason: 'the front matter must be a YAML map with at least name and description' });
    expect(await checkSkillFile('# Just Markdown\n', 'a')).toMatchObject({ ok: false, reason: expect.stringMatching(/does not start with YAML front matter/) });
    expect(await checkSkillFile('---\nname: a\ndescription: d\n', 'a')).toEqual({ ok: false, reason: 'the front matter is not closed by a line "---"' });
  });

  it('refuses wrongly typed optional fields and caps aliases', async () => {
    expect((await checkSkillFile(skill('name: a\ndescription: d\nmetadata: [1, 2]'), 'a')).ok).toBe(false);
    expect((await checkSkillFile(skill(`name: a\ndescription: d\ncompatibility: ${'c'.repeat(501)}`), 'a')).ok).toBe(false);
    const laughs = ['name: a', 'description: d', 'x0: &a0 [l, l, l, l, l, l, l, l, l]'];
    for (let i = 1; i < 8; i++) laughs.push(`x${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
    expect((await checkSkillFile(skill(laughs.join('\n')), 'a')).ok).toBe(false);
  });
});
