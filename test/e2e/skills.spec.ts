// Skills and make_directory in the desktop, against the real service and the
// mock model: the session's skills, Settings' list of skills not offered, a
// skill_view card shown like a read, and a make_directory approval.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ask, expect, test } from './fixtures';

const skillMd = (name: string, description: string, extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\n\nStep one: read CHANGELOG.md.\n`;

test.beforeEach(async ({ mino }) => {
  await mino.writeProject({
    '.agents/skills/release-notes/SKILL.md': skillMd('release-notes', 'Write release notes from the changelog.', 'allowed-tools: Bash(git:*)\n'),
    '.agents/skills/Bad_Name/SKILL.md': skillMd('Bad_Name', 'x'),
  });
  const personal = path.join(mino.home, '.mino', 'skills', 'commit-style');
  await fs.mkdir(personal, { recursive: true });
  await fs.writeFile(path.join(personal, 'SKILL.md'), skillMd('commit-style', 'How I write commit messages.'));
});

test('the session lists its skills with origin, Settings says which are not offered and why, and allowed-tools grants nothing', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const panel = page.getByTestId('session-skills');
  await expect(panel.locator('summary')).toHaveText('Skills (2), 1 not offered');
  await panel.locator('summary').click();
  const skills = panel.getByTestId('skill');
  await expect(skills).toHaveCount(2);
  await expect(skills.nth(0)).toContainText('commit-style');
  await expect(skills.nth(0)).toContainText('How I write commit messages.');
  await expect(skills.nth(0).getByTestId('skill-origin')).toHaveText('Yours (~/.mino)');
  await expect(skills.nth(1)).toContainText('release-notes');
  await expect(skills.nth(1).getByTestId('skill-origin')).toHaveText('Project');
  await expect(skills.nth(1).getByTestId('skill-allowed-tools')).toHaveText(
    'Lists allowed-tools Bash(git:*): information only; a skill grants no permission.',
  );

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const section = settings.getByTestId('skills-section');
  await expect(section.getByTestId('skill')).toHaveCount(2);
  await expect(section.getByTestId('skill-not-offered')).toHaveText(
    'Bad_Name (Project, .agents/skills/Bad_Name/SKILL.md) is not offered: name may contain only lowercase letters, digits and single hyphens between them (e.g. "pdf-tools").',
  );
  await page.keyboard.press('Escape');

  // A skill added while the session is open is found on reload.
  await mino.writeProject({ '.agents/skills/deploy/SKILL.md': skillMd('deploy', 'Deploy the site.') });
  await panel.getByRole('button', { name: 'Reload skills' }).click();
  await expect(panel.locator('summary')).toHaveText('Skills (3), 1 not offered');
});

test('a skill_view call is a card like a read: allowed without asking, its output folded', async ({ page, mino }) => {
  mino.server.enqueue(
    { calls: [{ name: 'skill_view', arguments: { name: 'release-notes' }, call_id: 'sv' }] },
    { text: 'I loaded the release-notes skill.' },
  );
  await mino.open();
  await mino.startSession();
  await ask(page, 'Write the release notes.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('I loaded the release-notes skill.');
  const card = page.locator('[data-testid="tool-card"][data-tool="skill_view"]');
  await expect(card.getByTestId('decision-badge')).toHaveText('Allowed without asking (read-only)');
  await expect(card.getByTestId('result-status')).toHaveText('[Tool result: completed]');
  await expect(card.getByTestId('tool-output')).toHaveCount(0);
  await card.getByRole('button', { name: /Show output/ }).click();
  await expect(card.getByTestId('tool-output')).toContainText('Step one: read CHANGELOG.md.');
  expect(mino.asks).toEqual([]);
  expect(mino.server.requests[0].body.instructions).toContain('- release-notes (project): "Write release notes from the changelog."');
});

test('make_directory asks in manual mode with the directories it will create, and creates them once approved', async ({ page, mino }) => {
  mino.server.enqueue({ calls: [{ name: 'make_directory', arguments: { path: 'docs/releases' }, call_id: 'md' }] }, { text: 'Made the folder.' });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Make a folder for release notes.');
  const dialog = page.getByRole('dialog', { name: 'Approve make_directory?' });
  await expect(dialog.locator('[data-field="Action"] dd')).toHaveText('Create 2 directories');
  await expect(dialog.locator('.preview')).toHaveText('docs\ndocs/releases');
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Made the folder.');
  const card = page.locator('[data-testid="tool-card"][data-tool="make_directory"]');
  await expect(card.getByTestId('tool-output')).toHaveText('Created 2 directories: docs, docs/releases.');
  expect((await fs.stat(mino.projectFile('docs/releases'))).isDirectory()).toBe(true);
  expect(mino.asks).toEqual(['make_directory']);
});
