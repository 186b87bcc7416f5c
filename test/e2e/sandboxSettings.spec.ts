// The sandbox in Settings: the home folders a sandboxed command may read, one
// per line, with the schema's words for a bad line; widening them or turning
// the sandbox off waits for a yes in main's own dialog (faked at that edge),
// narrowing is saved at once; and what sandboxes commands here is named.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { SANDBOX_TURNED_OFF } from '../../src/main/core/agent/defaultDeps';
import { sandboxAvailability } from '../../src/main/core/sandbox/availability';
import { DEFAULT_SANDBOX_READABLE } from '../../src/shared/sandboxReadable';
import { sandboxStatusOf, sandboxStatusText } from '../../src/shared/sandboxStatus';
import { SETTING_FIELDS } from '../../src/shared/settings';
import { expect, test, type MinoHarness } from './fixtures';

test.use({ withModel: false });

async function openSettings(page: Page, mino: MinoHarness) {
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const folders = dialog.getByLabel('Home folders the sandbox can read');
  await expect(folders).toHaveValue(DEFAULT_SANDBOX_READABLE.join('\n'));
  return { dialog, folders, save: () => dialog.getByRole('button', { name: 'Save settings' }).click() };
}

async function stored(mino: MinoHarness): Promise<Record<string, unknown> | null> {
  const text = await fs.readFile(path.join(mino.home, '.mino', 'config.json'), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as Record<string, unknown>);
}

test('the folders are a textarea, one per line, described by their help, and a bad line shows the schema\'s message', async ({ page, mino }) => {
  const { dialog, folders, save } = await openSettings(page, mino);
  await expect(folders).toHaveJSProperty('tagName', 'TEXTAREA');
  await expect(folders).toHaveAccessibleDescription(SETTING_FIELDS.sandboxReadable.help);
  await expect(folders).not.toHaveAttribute('aria-invalid', 'true');

  await folders.fill('~/.cargo/bin\n.aws\n');
  const problem = '".aws" is neither a path in your home (~/...) nor an absolute path: write it as ~/.cargo/bin or /home/you/.cargo/bin';
  await expect(folders).toHaveAttribute('aria-invalid', 'true');
  await expect(folders).toHaveAccessibleDescription(`${SETTING_FIELDS.sandboxReadable.help} Sandbox-readable folders: ${problem}.`);
  await save();
  await expect(dialog.getByRole('alert')).toContainText(problem);
  expect(await stored(mino)).toBeNull();
  expect(mino.native.questions).toEqual([]);
});

test('adding a folder waits for the yes in main\'s dialog: Cancel saves nothing and says what stays', async ({ page, mino }) => {
  const { dialog, folders, save } = await openSettings(page, mino);
  await folders.fill([...DEFAULT_SANDBOX_READABLE, '~/.config/tool'].join('\n'));
  await save();
  await expect(dialog.getByRole('alert')).toHaveText('Nothing was saved: sandboxed commands still cannot read ~/.config/tool. You chose not to let them.');
  expect(mino.native.questions).toEqual([expect.objectContaining({ message: 'Let every sandboxed command read ~/.config/tool?', confirmLabel: 'Let them read' })]);
  expect(await stored(mino)).toBeNull();

  mino.native.answer = true;
  await save();
  await expect(dialog.getByRole('status').filter({ hasText: 'Saved to' })).toBeVisible();
  expect(await stored(mino)).toMatchObject({ sandboxReadable: [...DEFAULT_SANDBOX_READABLE, '~/.config/tool'] });
  expect(mino.native.questions).toHaveLength(2);
});

test('removing a folder is saved at once, without a question', async ({ page, mino }) => {
  const { dialog, folders, save } = await openSettings(page, mino);
  const fewer = DEFAULT_SANDBOX_READABLE.filter((entry) => entry !== '~/.nvm');
  await folders.fill(fewer.join('\n'));
  await save();
  await expect(dialog.getByRole('status').filter({ hasText: 'Saved to' })).toBeVisible();
  expect(await stored(mino)).toMatchObject({ sandboxReadable: fewer });
  expect(mino.native.questions).toEqual([]);
});

test('Settings names what sandboxes commands here; turning the sandbox off asks first, and then says commands are not sandboxed', async ({ page, mino }) => {
  const { dialog, save } = await openSettings(page, mino);
  const status = dialog.getByTestId('sandbox-status');
  const machine = sandboxStatusOf(await sandboxAvailability());
  await expect(status).toHaveText(`Sandbox: ${sandboxStatusText(machine)}.`);
  if (machine.available && machine.kind === 'bwrap') await expect(status).toHaveText(/^Sandbox: Linux bubblewrap \d+\.\d+\S* at \/\S+\/bwrap\.$/);

  await dialog.getByLabel('Sandbox bash commands').uncheck();
  await save();
  await expect(dialog.getByRole('alert')).toHaveText('Nothing was saved: bash commands stay in the sandbox. You chose to keep it on.');
  expect(mino.native.questions.map((question) => question.title)).toEqual(['Turn off the bash sandbox?']);
  await expect(status).toHaveText(`Sandbox: ${sandboxStatusText(machine)}.`);

  mino.native.answer = true;
  await save();
  await expect(dialog.getByRole('status').filter({ hasText: 'Saved to' })).toBeVisible();
  await expect(status).toHaveText(`Sandbox: not available: ${SANDBOX_TURNED_OFF}.`);
});
