// What the model works from and towards, in the window: the project's
// instructions line (opening the text the model was sent), and the plan it
// keeps with update_plan, pinned above the message box while its turn runs.
import * as fs from 'node:fs/promises';
import { ask, expect, test } from './fixtures';

test('the project instructions line names AGENTS.md and its size, and opens the text the model was sent', async ({ page, mino }) => {
  await mino.writeProject({ 'AGENTS.md': 'Run the tests with make check.\n' });
  mino.server.enqueue({ text: 'Noted.' });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Hello.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Noted.');
  const line = page.getByTestId('project-instructions');
  await expect(line).toContainText(/^Project instructions: AGENTS\.md, \d+ tokens?/);
  await line.getByText(/^Project instructions:/).click();
  await expect(line).toContainText('Run the tests with make check.');
});

test('the plan is pinned above the message box while the turn runs, and goes when it ends', async ({ page, mino }) => {
  const plan = { steps: [{ step: 'Read the code', status: 'completed' }, { step: 'Run the check', status: 'in_progress' }, { step: 'Report', status: 'pending' }] };
  mino.server.enqueue(
    { calls: [{ name: 'update_plan', arguments: plan, call_id: 'call_plan' }] },
    { calls: [{ name: 'bash', arguments: { command: 'while [ ! -e go ]; do sleep 0.05; done' }, call_id: 'call_wait' }] },
    { text: 'Done.' },
  );
  await mino.open();
  await mino.startSession();
  await ask(page, 'Plan, then run the check.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  const checklist = page.getByTestId('plan-checklist');
  await expect(checklist).toContainText('[x] Read the code');
  await expect(checklist).toContainText('[>] Run the check');
  await expect(checklist).toContainText('[ ] Report');
  await fs.writeFile(mino.projectFile('go'), '');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Done.');
  await expect(checklist).toBeHidden();
});
