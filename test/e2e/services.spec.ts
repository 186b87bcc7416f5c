// Model services in the window: the first-run guided setup, sending refused
// until a service works, Settings → Services (add from a preset editing every
// field, a key per service, Test connection's models and its failures as they
// were named), and the session's model picker changing who answers.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { startMockServiceServer, type MockServiceServer } from '../support/mockServiceServer';
import { MIN_WINDOW } from '../../src/shared/windowSize';
import { ask, expect, test, type MinoHarness } from './fixtures';

let remote: MockServiceServer | undefined;
test.afterEach(async () => {
  await remote?.close();
  remote = undefined;
});

async function writeConfig(home: string, config: object): Promise<void> {
  await fs.mkdir(path.join(home, '.mino'), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(home, '.mino', 'config.json'), JSON.stringify(config), { mode: 0o600 });
}

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function openSession(page: Page, mino: MinoHarness): Promise<void> {
  await mino.startSession();
  await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeVisible();
}

test.describe('without a working service (a first run)', () => {
  test.use({ withModel: false });

  test('the start screen guides the setup: pick a service, test it (a failure says what failed), pick a model; then sending works', async ({ page, mino }) => {
    remote = await startMockServiceServer({ models: ['qwen3', 'llama3.2'] });
    await mino.open();
    const setup = page.getByTestId('service-setup');
    await expect(setup).toContainText('Set up a model service');
    await setup.getByLabel('1. Service').selectOption({ label: 'LM Studio' });
    await expect(setup).toContainText('No key needed');

    // A wrong path on the right server: the failure is named as the test named it.
    const wrong = remote.baseURL.replace(/\/v1$/, '/wrong');
    await setup.getByLabel('Service URL').fill(wrong);
    await setup.getByRole('button', { name: '3. Save and test connection' }).click();
    await expect(setup.getByTestId('connection-result')).toHaveText(
      `${wrong}/chat/completions does not exist on this server (HTTP 404: No route POST /wrong/chat/completions). Check the base URL, and that the server speaks OpenAI Chat Completions: a server that speaks only Chat Completions has no /responses (choose the chat protocol for it).`,
    );

    await setup.getByLabel('Service URL').fill(remote.baseURL);
    await setup.getByRole('button', { name: '3. Save and test connection' }).click();
    await expect(setup.getByTestId('connection-result')).toContainText('Models found: qwen3, llama3.2.');
    await setup.getByLabel('4. Model').selectOption('llama3.2');
    await setup.getByRole('button', { name: 'Use this model' }).click();
    await expect(setup).toHaveCount(0);

    const config = JSON.parse(await fs.readFile(path.join(mino.home, '.mino', 'config.json'), 'utf8'));
    expect(config).toEqual({ services: [{ name: 'lmstudio', protocol: 'chat', baseUrl: remote.baseURL, model: 'llama3.2' }], service: 'lmstudio' });

    await openSession(page, mino);
    remote.chat.enqueue({ text: 'Hello from the local model.' });
    await ask(page, 'Hello?');
    await expect(page.getByText('Hello from the local model.')).toBeVisible();
    expect((remote.chat.requests[0]?.body as { model: string }).model).toBe('llama3.2');
  });

  test('in the smallest window the setup, grown by its models, leaves the project and session pickers in reach', async ({ page, mino }) => {
    remote = await startMockServiceServer({ models: ['qwen3', 'llama3.2'] });
    await page.setViewportSize(MIN_WINDOW);
    await mino.open();
    const setup = page.getByTestId('service-setup');
    await setup.getByLabel('1. Service').selectOption({ label: 'LM Studio' });
    await setup.getByLabel('Service URL').fill(remote.baseURL);
    await setup.getByRole('button', { name: '3. Save and test connection' }).click();
    await expect(setup.getByTestId('connection-result')).toContainText('Models found: qwen3, llama3.2.');

    // Each in view without scrolling the page; a click that something else covers waits for good, so a short timeout says so at once.
    mino.picker.willPick(mino.project);
    await expect(page.getByRole('button', { name: 'Open project…' })).toBeInViewport();
    await page.getByRole('button', { name: 'Open project…' }).click({ timeout: 5_000 });
    await expect(page.getByRole('button', { name: 'New session' })).toBeInViewport();
    await page.getByRole('button', { name: 'New session' }).click({ timeout: 5_000 });
    await expect(page.getByRole('textbox', { name: 'Message to Mino' })).toBeVisible();
    await setup.getByLabel('4. Model').selectOption('llama3.2');
    await setup.getByRole('button', { name: 'Use this model' }).click({ timeout: 5_000 });
    await expect(setup).toHaveCount(0);
  });

  test('sending is refused with a pointer to the setup until a service works, and the pointer goes once one does', async ({ page, mino }) => {
    remote = await startMockServiceServer({ models: ['qwen3'] });
    await writeConfig(mino.home, { services: [{ name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'qwen3' }], service: 'local' });
    await mino.open();
    await openSession(page, mino);
    const hint = page.getByTestId('composer-hint');
    await expect(hint).toContainText('No model service is set up yet');
    await expect(hint).toContainText('Settings → Services');
    await page.getByRole('textbox', { name: 'Message to Mino' }).fill('Hello?');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();

    const dialog = await openSettings(page);
    const local = dialog.getByRole('listitem', { name: 'Service local' });
    await local.getByRole('button', { name: 'Test connection' }).click();
    await expect(local.getByTestId('connection-result')).toContainText('Models found: qwen3.');
    await expect(local.getByTestId('service-state')).toHaveText('Ready');
    await dialog.getByRole('button', { name: 'Close settings' }).click();

    await expect(hint).not.toContainText('No model service is set up yet');
    await expect(page.getByTestId('service-setup')).toHaveCount(0);
    remote.chat.enqueue({ text: 'Now I can answer.' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByText('Now I can answer.')).toBeVisible();
  });

  test('Settings → Services adds a service from a preset with every field edited, keeps a key per service, and shows what Test connection found', async ({ page, mino }) => {
    remote = await startMockServiceServer({ models: ['team-model', 'other-model'], key: 'sk-right-4242' });
    await mino.open();
    const dialog = await openSettings(page);
    const section = dialog.getByTestId('services-section');
    await section.getByLabel('Add a service from').selectOption({ label: 'OpenRouter' });
    await section.getByRole('button', { name: 'Add service…' }).click();
    const form = section.getByRole('form', { name: 'New service' });
    await expect(form.getByLabel('Service URL')).toHaveValue('https://openrouter.ai/api/v1');
    await form.getByLabel('Service name').fill('team');
    await form.getByLabel('Protocol').selectOption('chat');
    await form.getByLabel('Service URL').fill(remote.baseURL);
    await form.getByLabel('Model').fill('team-model');
    await form.getByLabel('Key variable (optional)').fill('');
    await form.getByLabel('Service context window (optional)').fill('64000');
    await form.getByRole('button', { name: 'Save service' }).click();

    const team = section.getByRole('listitem', { name: 'Service team' });
    await expect(team).toContainText('No key set');
    await team.getByLabel('API key for team').fill('sk-wrong-1');
    await team.getByRole('button', { name: 'Save key' }).click();
    await expect(team.getByTestId('service-key-status')).toHaveText('A key is stored securely on this computer.');
    await team.getByRole('button', { name: 'Test connection' }).click();
    await expect(team.getByTestId('connection-result')).toHaveAttribute('data-status', 'failed');
    await expect(team.getByTestId('connection-result')).toHaveText(
      'The service refused the API key (HTTP 401: Incorrect API key provided.). Check that the key is right, still valid, and belongs to this service.',
    );

    await team.getByLabel('API key for team').fill('sk-right-4242');
    await team.getByRole('button', { name: 'Save key' }).click();
    await team.getByRole('button', { name: 'Test connection' }).click();
    await expect(team.getByTestId('connection-result')).toHaveText('Connected to “team”. Models found: team-model, other-model.');
    expect(await page.content()).not.toContain('sk-right-4242');
    expect(await page.content()).not.toContain('sk-wrong-1');
    const config = JSON.parse(await fs.readFile(path.join(mino.home, '.mino', 'config.json'), 'utf8'));
    expect(config.services).toEqual([{ name: 'team', protocol: 'chat', baseUrl: remote.baseURL, model: 'team-model', contextWindow: 64000 }]);
  });
});

test('the model picker in the window lists the session\'s service and its models, and a pick changes who answers next', async ({ page, mino }) => {
  remote = await startMockServiceServer({ models: ['qwen3', 'llama3.2'] });
  await writeConfig(mino.home, { services: [{ name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'qwen3' }] });
  await mino.open();
  await openSession(page, mino);
  const picker = page.getByLabel('Model', { exact: true });
  await expect(picker).toHaveValue('default\nmock-model');

  mino.server.enqueue({ text: 'Answered by the default service.' });
  await ask(page, 'First question');
  await expect(page.getByText('Answered by the default service.')).toBeVisible();

  await picker.selectOption('local\nqwen3');
  await expect(picker.locator('option', { hasText: 'llama3.2' })).toHaveCount(1);
  await picker.selectOption('local\nllama3.2');
  await expect(picker).toHaveValue('local\nllama3.2');

  remote.chat.enqueue({ text: 'Answered by the local service.' });
  await ask(page, 'Second question');
  await expect(page.getByText('Answered by the local service.')).toBeVisible();
  const sent = remote.chat.requests[0]?.body as { model: string; messages: unknown[] };
  expect(sent.model).toBe('llama3.2');
  expect(JSON.stringify(sent.messages)).toContain('Answered by the default service.');
});
