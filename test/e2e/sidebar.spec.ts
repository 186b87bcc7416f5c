// The session sidebar: this project's sessions by title (the first question,
// shortened, until renamed), a search over titles, opening one here or in a
// new window, renaming that survives a reload, and a toggle on a narrow window.
import type { Page } from '@playwright/test';
import { SessionLog } from '../../src/main/core/sessions/sessionLog';
import { expect, test } from './fixtures';

async function savedSession(home: string, project: string, question: string): Promise<string> {
  const log = await SessionLog.create(home, project);
  await log.append({ type: 'user', text: question });
  await log.append({ type: 'response', responseId: `resp_${log.id}`, output: [{ type: 'message', role: 'assistant', text: `Answered: ${question}` }] });
  await log.append({ type: 'turn_end', status: 'completed' });
  await log.close();
  return log.id;
}

const item = (page: Page, id: string) => page.locator(`[data-testid="sidebar-item"][data-session-id="${id}"]`);

test('lists the project\'s sessions by title with their time and id, and the search filters by title', async ({ page, mino }) => {
  const readme = await savedSession(mino.home, mino.project, 'Add a README that explains how to build the project');
  const tests = await savedSession(mino.home, mino.project, 'Fix the failing tests in the parser module');
  await mino.open();
  const current = await mino.startSession();
  const sidebar = page.getByRole('navigation', { name: 'Sessions' });
  // Newest first as the service lists them (the two saved ones may share a millisecond): only the set matters here.
  await expect(sidebar.getByTestId('sidebar-item')).toHaveCount(3);
  expect((await sidebar.getByTestId('sidebar-title').allInnerTexts()).sort()).toEqual([
    'Add a README that explains how to build the project',
    'Fix the failing tests in the parser module',
    'Untitled session',
  ]);
  await expect(item(page, readme)).toContainText(readme);
  await expect(item(page, current).getByTestId('current-session-id')).toHaveText(current);
  await expect(item(page, current).getByRole('button', { name: /^Untitled session/ })).toHaveAttribute('aria-current', 'page');

  await sidebar.getByRole('searchbox', { name: 'Search sessions' }).fill('failing parser');
  await expect(sidebar.getByTestId('sidebar-title')).toHaveText(['Fix the failing tests in the parser module']);
  await sidebar.getByRole('searchbox', { name: 'Search sessions' }).fill('nothing like this');
  await expect(sidebar.getByTestId('sidebar-item')).toHaveCount(0);
  await expect(sidebar).toContainText('No session title matches.');
  await sidebar.getByRole('searchbox', { name: 'Search sessions' }).fill('');
  await expect(sidebar.getByTestId('sidebar-item')).toHaveCount(3);
  await expect(item(page, tests)).toContainText(tests);
});

test('opens a session in this window or in a new one', async ({ page, mino }) => {
  const readme = await savedSession(mino.home, mino.project, 'Add a README');
  const tests = await savedSession(mino.home, mino.project, 'Fix the failing tests');
  await mino.open();
  await mino.startSession();
  await item(page, readme).getByRole('button', { name: /^Add a README/ }).click();
  await expect(page.getByTestId('session-layout')).toHaveAttribute('data-session-id', readme);
  await expect(page.getByTestId('header-title')).toHaveText('Add a README');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Answered: Add a README');

  await item(page, tests).getByRole('button', { name: 'Open “Fix the failing tests” in a new window' }).click();
  await expect.poll(() => mino.openedWindows).toEqual([tests]);
  await expect(page.getByTestId('window-message')).toContainText(`Session ${tests} is open in its own window.`);
  await expect(page.getByTestId('session-layout')).toHaveAttribute('data-session-id', readme);
});

test('a rename is checked, saved, and still there after a reload', async ({ page, mino }) => {
  const saved = await savedSession(mino.home, mino.project, 'Change the greeting in greet.go to hello');
  await mino.open();
  await mino.startSession();
  await item(page, saved).getByRole('button', { name: 'Rename “Change the greeting in greet.go to hello”' }).click();
  const field = item(page, saved).getByRole('textbox', { name: 'Session title' });
  await expect(field).toBeFocused();
  await field.fill('   ');
  await item(page, saved).getByRole('button', { name: 'Save' }).click();
  await expect(item(page, saved).getByRole('alert')).toHaveText('The session title is empty: type a name for the session.');
  await field.fill('x'.repeat(81));
  await field.press('Enter');
  await expect(item(page, saved).getByRole('alert')).toContainText('longer than 80 characters');
  await field.fill('  Greeting fix  ');
  await field.press('Enter');
  await expect(item(page, saved).getByTestId('sidebar-title')).toHaveText('Greeting fix');

  // Reloaded, the page is a new window of the service (the test bridge's): it opens the project and a session again.
  await page.reload();
  await page.getByRole('button', { name: /^project / }).click();
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await expect(item(page, saved).getByTestId('sidebar-title')).toHaveText('Greeting fix');
  await page.getByRole('navigation', { name: 'Sessions' }).getByRole('searchbox').fill('greeting fix');
  await expect(page.getByTestId('sidebar-title')).toHaveText(['Greeting fix']);
  await item(page, saved).getByRole('button', { name: /^Greeting fix/ }).click();
  await expect(page.getByTestId('header-title')).toHaveText('Greeting fix');
});

test('renaming this window\'s own session retitles its header; Escape cancels a rename', async ({ page, mino }) => {
  await mino.open();
  const current = await mino.startSession();
  await item(page, current).getByRole('button', { name: 'Rename “Untitled session”' }).click();
  await item(page, current).getByRole('textbox', { name: 'Session title' }).fill('Scratch');
  await item(page, current).getByRole('textbox', { name: 'Session title' }).press('Escape');
  await expect(item(page, current).getByTestId('sidebar-title')).toHaveText('Untitled session');
  await item(page, current).getByRole('button', { name: 'Rename “Untitled session”' }).click();
  await item(page, current).getByRole('textbox', { name: 'Session title' }).fill('Release notes');
  await item(page, current).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('header-title')).toHaveText('Release notes');
});

test('below 1000 px the sidebar is a toggle over the conversation, closed with Escape', async ({ page, mino }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await mino.open();
  await mino.startSession();
  const sidebar = page.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar).toHaveCount(0);
  const toggle = page.getByRole('button', { name: 'Sessions', exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const transcriptWidth = (await page.getByTestId('transcript').boundingBox())!.width;
  await toggle.click();
  await expect(sidebar).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  // It lies over the conversation: the transcript keeps its width.
  expect((await page.getByTestId('transcript').boundingBox())!.width).toBe(transcriptWidth);
  await sidebar.getByRole('searchbox', { name: 'Search sessions' }).press('Escape');
  await expect(sidebar).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(sidebar).toBeVisible();
  await expect(toggle).toBeHidden();
});
