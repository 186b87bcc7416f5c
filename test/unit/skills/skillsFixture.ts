// A real project and home in a temp directory for the skill tests, with a
// helper that writes a skill folder the way a person would.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export interface SkillsFixture {
  base: string;
  project: string;
  home: string;
  /** Writes `<project>/.agents/skills/<folder>/<file>` or `~/.mino/skills/<folder>/<file>`. */
  write(where: 'project' | 'personal', rel: string, content: string): Promise<string>;
  skillsDir(where: 'project' | 'personal'): string;
  cleanup(): Promise<void>;
}

export function skillText(name: string, description: string, body = `# ${name}\n\nSteps.\n`, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n${body}`;
}

export async function makeSkillsFixture(): Promise<SkillsFixture> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-skills-')));
  const project = path.join(base, 'project');
  const home = path.join(base, 'home');
  await fs.mkdir(project);
  await fs.mkdir(path.join(home, '.mino'), { recursive: true });
  const skillsDir = (where: 'project' | 'personal') => (where === 'project' ? path.join(project, '.agents', 'skills') : path.join(home, '.mino', 'skills'));
  return {
    base,
    project,
    home,
    skillsDir,
    async write(where, rel, content) {
      const file = path.join(skillsDir(where), rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content);
      return file;
    },
    cleanup: () => fs.rm(base, { recursive: true, force: true }),
  };
}
