import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { clientId } from '../../src/main/service/clients';
import { dispatchInvoke } from '../../src/main/service/dispatch';
import { expect, test } from './fixtures';

// The service starts without a key here, as on a first run.
test.use({ withModel: false });

test('saving a model name in the settings dialog writes it to ~/.mino/config.json', async ({ page, mino }) => {
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();

  const model = dialog.getByLabel('Model name');
  await expect(model).toHaveValue('gpt-5-mini');
  await model.fill('my-local-model');
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved to');

  const file = path.join(mino.home, '.mino', 'config.json');
  const stored = JSON.parse(await fs.readFile(file, 'utf8'));
  expect(stored).toEqual({ baseUrl: 'https://api.openai.com/v1', model: 'my-local-model', contextWindow: 128000 });
  expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  // Another client asking the service sees the saved value.
  const reader = clientId('settings-reader');
  mino.service.attachClient(reader, () => undefined);
  const view = await dispatchInvoke(mino.service, reader, 'settings:get', undefined);
  expect(view).toMatchObject({ ok: true, value: { settings: { model: 'my-local-model' } } });
});

test('an invalid context window is refused with its reason and nothing is written', async ({ page, mino }) => {
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Context window (tokens)').fill('-5');
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The context window must be a positive number of tokens');
  await expect(fs.access(path.join(mino.home, '.mino', 'config.json'))).rejects.toThrow();
});

test('the settings dialog is keyboard accessible: Escape closes it and focus returns to the page', async ({ page, mino }) => {
  await mino.open();
  const settings = page.getByRole('button', { name: 'Settings' });
  await settings.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(settings).toBeFocused();
});

test('an API key can be set but is never shown back to the page', async ({ page, mino }) => {
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog.getByText('No API key is set.')).toBeVisible();
  await dialog.getByLabel('New API key').fill('sk-test-123');
  await dialog.getByRole('button', { name: 'Save key' }).click();
  await expect(dialog.getByText('A key is stored securely on this computer.')).toBeVisible();
  expect(await mino.service.apiKey()).toBe('sk-test-123');
  expect(await page.content()).not.toContain('sk-test-123');
});

test('a first run without a key explains what to set, and the explanation goes once a key is saved', async ({ page, mino }) => {
  await mino.open();
  const notice = page.getByTestId('api-key-notice');
  await expect(notice).toContainText('Set an API key to start');
  await expect(notice).toContainText('OPENAI_API_KEY');
  await notice.getByRole('button', { name: 'Enter an API key…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('New API key').fill('sk-test-456');
  await dialog.getByRole('button', { name: 'Save key' }).click();
  await expect(dialog.getByText('A key is stored securely on this computer.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close settings' }).click();
  await expect(notice).toHaveCount(0);
});
