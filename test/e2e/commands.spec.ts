// The `/` commands of the message box: typing `/` lists them (an accessible,
// keyboard-driven listbox); each runs what the window's own control runs. /mode
// alone says the mode; an unknown mode or extra words is an error and the mode
// stays; a loosening asks in main's own dialog (faked at that edge), as the mode
// list does; /plan switches to the planning mode; session actions open the same
// dialogs as the toolbar. Nothing typed as a command reaches the model.
import { PERMISSION_MODES } from '../../src/shared/domain';
import { modeHelp } from '../../src/shared/modeTable';
import { ask, expect, GREET_GO, test, type MinoHarness } from './fixtures';

test.beforeEach(async ({ mino }) => {
  await mino.writeProject({ 'greet.go': GREET_GO });
  await mino.open();
  await mino.startSession();
});

const box = (page: import('@playwright/test').Page) => page.getByRole('textbox', { name: 'Message to Mino' });

function modelRequests(mino: MinoHarness) {
  return mino.server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/responses'));
}

test('typing / lists the commands as a listbox the arrows move through; Enter runs the highlighted one', async ({ page }) => {
  await box(page).fill('/');
  const list = page.getByRole('listbox', { name: 'Commands' });
  await expect(list.getByRole('option')).toHaveCount(9);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(box(page)).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);

  await box(page).fill('/c');
  await expect(list.getByRole('option')).toHaveText([/^\/compact/, /^\/changes/, /^\/clear/]);
  await box(page).press('ArrowDown');
  const changes = list.getByRole('option', { name: /^\/changes/ });
  await expect(changes).toHaveAttribute('aria-selected', 'true');
  await expect(box(page)).toHaveAttribute('aria-activedescendant', (await changes.getAttribute('id'))!);
  await box(page).press('Enter');
  // The same Changes view as the toolbar's button.
  await expect(page.getByTestId('changes-dialog')).toBeVisible();
  await page.getByTestId('changes-dialog').getByRole('button', { name: 'Close' }).click();
  await expect(box(page)).toHaveValue('');

  // Escape closes the list and leaves the text.
  await box(page).fill('/re');
  await expect(list).toBeVisible();
  await box(page).press('Escape');
  await expect(list).toBeHidden();
  await expect(box(page)).toHaveValue('/re');
});

test('/mode alone says the mode; an unknown name or extra words is an error and the mode stays', async ({ page, mino }) => {
  const control = page.getByLabel('Permission mode');
  await box(page).fill('/mode');
  await box(page).press('Enter');
  await expect(page.getByTestId('command-said')).toContainText(`Permission mode: ${modeHelp('manual')}`);
  await expect(page.getByTestId('command-said')).toContainText(PERMISSION_MODES.join(', '));

  await box(page).fill('/mode yolo');
  await box(page).press('Enter');
  await expect(page.getByText('There is no permission mode "yolo"')).toBeVisible();
  await expect(box(page)).toHaveValue('/mode yolo');
  await box(page).fill('/mode bypass now');
  await box(page).press('Enter');
  await expect(page.getByText('/mode takes one name; remove "now". The permission mode did not change.')).toBeVisible();
  await expect(control).toHaveValue('manual');
  expect(mino.native.questions).toHaveLength(0);
  expect(modelRequests(mino)).toHaveLength(0);
});

test('/mode with a looser mode asks in main\'s dialog as the mode list does; No keeps the mode, Yes changes it', async ({ page, mino }) => {
  const control = page.getByLabel('Permission mode');
  mino.native.answer = false;
  await box(page).fill('/mode accept-edits');
  await box(page).press('Enter');
  await expect.poll(() => mino.native.questions.length).toBe(1);
  expect(mino.native.questions[0]).toMatchObject({ message: 'Switch this session to accept-edits mode?' });
  await expect(page.getByTestId('window-message').or(page.getByTestId('window-error'))).toBeVisible();
  await expect(control).toHaveValue('manual');

  mino.native.answer = true;
  // Picked from the list of modes that /mode offers once a letter follows it.
  await box(page).fill('/mode ac');
  await expect(page.getByRole('listbox', { name: 'Commands' }).getByRole('option', { name: /^accept-edits/ })).toBeVisible();
  await box(page).press('Enter');
  await expect(control).toHaveValue('accept-edits');
  expect(mino.native.questions).toHaveLength(2);
  expect(modelRequests(mino)).toHaveLength(0);
});

test('/plan switches to the planning mode, a tightening that asks nothing', async ({ page, mino }) => {
  await box(page).fill('/plan');
  await box(page).press('Enter');
  await expect(page.getByLabel('Permission mode')).toHaveValue('plan');
  expect(mino.native.questions).toHaveLength(0);
});

test('session commands open what the toolbar opens, wait while a turn runs, and a mistyped one says how to send it as a message', async ({ page, mino }) => {
  await box(page).fill('/resume');
  await box(page).press('Enter');
  await expect(page.getByTestId('resume-dialog')).toBeVisible();
  await page.getByTestId('resume-dialog').getByRole('button', { name: 'Close' }).click();

  await box(page).fill('/clear');
  await box(page).press('Enter');
  await expect(page.getByTestId('clear-dialog')).toBeVisible();
  await page.getByTestId('clear-dialog').getByRole('button', { name: 'Cancel' }).click();

  // No turn has changed a file: the undo says so, as the Changes view does.
  await box(page).fill('/undo');
  await box(page).press('Enter');
  await expect(page.getByTestId('window-error')).toBeVisible();

  await box(page).fill('/deploy now');
  await box(page).press('Enter');
  await expect(page.getByText('There is no command /deploy.')).toContainText('put a space before the /');
  await expect(box(page)).toHaveValue('/deploy now');
  expect(modelRequests(mino)).toHaveLength(0);

  // A path is a message, sent to the model as written.
  mino.server.enqueue({ text: 'That folder holds programs.' });
  await ask(page, '/usr/bin: what is in it?');
  await expect(page.getByTestId('assistant-message').last()).toContainText('That folder holds programs.');
  expect(modelRequests(mino)).toHaveLength(1);

  // While a turn runs, a session action waits, as the toolbar's buttons do.
  mino.server.enqueue({ hangAfterDeltas: ['Working'] });
  await ask(page, 'Take your time.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Working');
  await box(page).fill('/new');
  await box(page).press('Enter');
  await expect(page.getByRole('form', { name: 'Message' }).getByText('Session actions wait until the turn ends')).toBeVisible();
  await expect(page.getByTestId('queued-message')).toHaveCount(0);
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('/model opens the header\'s model list, /compact compacts as the toolbar does, and /new starts another session', async ({ page, mino }) => {
  await expect(page.getByTestId('model-picker')).toBeVisible();
  await box(page).fill('/model');
  await box(page).press('Enter');
  await expect(page.getByTestId('model-picker')).toBeFocused();
  await expect(page.getByTestId('command-said')).toContainText('Model list');

  // Nothing to summarize yet: the same refusal the toolbar's Compact gets.
  await box(page).fill('/compact');
  await box(page).press('Enter');
  await expect(page.getByTestId('window-error')).toContainText('There is nothing to compact yet');

  // As the toolbar's New session does from a window with a session: the new one opens in a window of its own.
  await box(page).focus();
  await box(page).fill('/new');
  await box(page).press('Enter');
  await expect(page.getByTestId('window-message')).toContainText('opened in its own window');
  expect(mino.openedWindows).toHaveLength(1);
});
