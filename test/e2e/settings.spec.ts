import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { clientId } from '../../src/main/service/clients';
import { dispatchInvoke } from '../../src/main/service/dispatch';
import type { Page } from '@playwright/test';
import { startTestHttpServer } from '../support/mcp/httpServer';
import { expect, test, type MinoHarness } from './fixtures';
import { SETTING_FIELDS, settingLabel } from '../../src/shared/settings';

// The service starts without a key here, as on a first run.
test.use({ withModel: false });

test('saving the default service\'s model in Settings → Services writes it to ~/.mino/config.json', async ({ page, mino }) => {
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();

  await dialog.getByRole('listitem', { name: 'Service default' }).getByRole('button', { name: 'Edit' }).click();
  const form = dialog.getByRole('form', { name: 'Edit service default' });
  const model = form.getByLabel('Model');
  await expect(model).toHaveValue('gpt-5-mini');
  await model.fill('my-local-model');
  await form.getByRole('button', { name: 'Save service' }).click();
  await expect(dialog.getByRole('listitem', { name: 'Service default' })).toContainText('model my-local-model');

  const file = path.join(mino.home, '.mino', 'config.json');
  const stored = JSON.parse(await fs.readFile(file, 'utf8'));
  // Only what differs from the defaults is stored.
  expect(stored).toEqual({ model: 'my-local-model' });
  expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  // Another client asking the service sees the saved value.
  const reader = clientId('settings-reader');
  mino.service.attachClient(reader, () => undefined);
  const view = await dispatchInvoke(mino.service, reader, 'settings:get', undefined);
  expect(view).toMatchObject({ ok: true, value: { settings: { model: 'my-local-model' } } });
});

test('the form shows every setting of the shared field description (the base URL and model under Services), with its help, and a stored key Mino does not know', async ({ page, mino }) => {
  await fs.mkdir(path.join(mino.home, '.mino'), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(mino.home, '.mino', 'config.json'), JSON.stringify({ contextWindow: 32000, colour: 'blue' }), { mode: 0o600 });
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  // The base URL and model are the default service's, edited with the other services.
  for (const field of Object.values(SETTING_FIELDS).filter((entry) => entry !== SETTING_FIELDS.baseUrl && entry !== SETTING_FIELDS.model)) {
    const input = dialog.getByLabel(settingLabel(field), { exact: true });
    await expect(input).toHaveAccessibleDescription(field.help);
  }
  await expect(dialog.getByLabel('Context window (tokens)')).toHaveValue('32000');
  await expect(dialog.getByRole('note')).toContainText('"colour"');
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
  const service = dialog.getByRole('listitem', { name: 'Service default' });
  await expect(service.getByText('No API key is set.')).toBeVisible();
  await service.getByLabel('API key for default').fill('sk-test-123');
  await service.getByRole('button', { name: 'Save key' }).click();
  await expect(service.getByText('A key is stored securely on this computer.')).toBeVisible();
  expect(await mino.service.apiKey()).toBe('sk-test-123');
  expect(await page.content()).not.toContain('sk-test-123');
});

test('a first run without a key offers the setup, and it goes once a key is saved', async ({ page, mino }) => {
  await mino.open();
  const notice = page.getByTestId('service-setup');
  await expect(notice).toContainText('Set up a model service');
  await expect(notice).toContainText('OPENAI_API_KEY');
  await notice.getByRole('button', { name: 'Services list' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const service = dialog.getByRole('listitem', { name: 'Service default' });
  await service.getByLabel('API key for default').fill('sk-test-456');
  await service.getByRole('button', { name: 'Save key' }).click();
  await expect(service.getByText('A key is stored securely on this computer.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close settings' }).click();
  await expect(notice).toHaveCount(0);
});

// ---------------------------------------------------------------- external tools (MCP)

const EVERYTHING_BIN = path.resolve(__dirname, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const PROBE_SERVER = path.resolve(__dirname, '../support/mcp/probeServer.mjs');
const MCP_ENV_SECRET = 'sk-mcp-env-SECRET-7171';
const MCP_HEADER_SECRET = 'hdr-mcp-SECRET-8282';
const MCP_QUERY_SECRET = 'qk-mcp-SECRET-9393';

async function writeMcpConfig(home: string, servers: unknown[]): Promise<void> {
  const dir = path.join(home, '.mino');
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(dir, 'mcp.json'), JSON.stringify({ servers }, null, 2), { mode: 0o600 });
}

/** A probe MCP server that starts only once a file named "go" exists in its working directory. */
function gatedProbeServer(name: string) {
  const script = `const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync('go')) { clearInterval(t); import(${JSON.stringify(PROBE_SERVER)}); } }, 50);`;
  return { name, command: process.execPath, args: ['-e', script] };
}

async function openProjectAndSettings(page: Page, mino: MinoHarness) {
  mino.picker.willPick(mino.project);
  await page.getByRole('button', { name: 'Open project…' }).click();
  await expect(page.getByRole('button', { name: 'New session' })).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  return page.getByRole('dialog', { name: 'Settings' });
}

test('Settings lists the MCP servers: connected ones with their tool count, a failing one with its error, and no secret anywhere in the page', async ({ page, mino }) => {
  const remote = await startTestHttpServer();
  try {
    await writeMcpConfig(mino.home, [
      { name: 'everything', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], env: { API_TOKEN: MCP_ENV_SECRET } },
      { name: 'ghost', command: 'mino-no-such-command-xyz', env: { API_TOKEN: MCP_ENV_SECRET } },
      { name: 'remote', url: `${remote.url}?key=${MCP_QUERY_SECRET}`, headers: { Authorization: `Bearer ${MCP_HEADER_SECRET}` } },
    ]);
    await mino.open();
    const dialog = await openProjectAndSettings(page, mino);
    const section = dialog.getByRole('region', { name: 'External tools (MCP)' });
    await expect(section).toContainText(path.join(mino.home, '.mino', 'mcp.json'));

    const everything = section.getByRole('listitem', { name: 'MCP server everything' });
    await expect(everything.getByTestId('mcp-server-state')).toHaveText(/^Connected, \d+ tools$/);
    await expect(everything).toContainText('Local command');
    await expect(everything).toContainText('server-everything');
    const ghost = section.getByRole('listitem', { name: 'MCP server ghost' });
    await expect(ghost.getByTestId('mcp-server-state')).toHaveText('Failed');
    await expect(ghost).toContainText('the command "mino-no-such-command-xyz" was not found');
    const http = section.getByRole('listitem', { name: 'MCP server remote' });
    await expect(http.getByTestId('mcp-server-state')).toHaveText('Connected, 5 tools');
    await expect(http).toContainText(`Remote (HTTP): ${remote.url}`);

    const content = await page.content();
    for (const secret of [MCP_ENV_SECRET, MCP_HEADER_SECRET, MCP_QUERY_SECRET]) expect(content).not.toContain(secret);
  } finally {
    await remote.close();
  }
});

test('checking MCP connections shows progress and leaves the rest of the dialog usable', async ({ page, mino }) => {
  await writeMcpConfig(mino.home, [gatedProbeServer('slow')]);
  await mino.open();
  const dialog = await openProjectAndSettings(page, mino);
  const section = dialog.getByRole('region', { name: 'External tools (MCP)' });
  await expect(section).toContainText('Checking connections…');
  await expect(section.getByRole('button', { name: 'Checking…' })).toBeDisabled();

  // The check is still waiting for the server; the settings above it work meanwhile.
  await dialog.getByLabel('Context window (tokens)').fill('48000');
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved to');
  await expect(section.getByRole('button', { name: 'Checking…' })).toBeDisabled();

  await fs.writeFile(mino.projectFile('go'), '');
  const slow = section.getByRole('listitem', { name: 'MCP server slow' });
  await expect(slow.getByTestId('mcp-server-state')).toHaveText('Connected, 3 tools');
  await expect(section).not.toContainText('Checking connections…');

  await section.getByRole('button', { name: 'Check connections' }).click();
  await expect(section.getByRole('button', { name: 'Check connections' })).toBeEnabled();
  await expect(slow.getByTestId('mcp-server-state')).toHaveText('Connected, 3 tools');
});

test('without a project, Settings lists the MCP servers as not connected and starts none of them', async ({ page, mino }) => {
  const marker = path.join(mino.project, 'started');
  const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`;
  await writeMcpConfig(mino.home, [{ name: 'local', command: process.execPath, args: ['-e', script] }]);
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'External tools (MCP)' });
  const local = section.getByRole('listitem', { name: 'MCP server local' });
  await expect(local.getByTestId('mcp-server-state')).toHaveText('Not connected');
  await expect(local).toContainText('Open a project to check it');
  await section.getByRole('button', { name: 'Check connections' }).click();
  await expect(section.getByRole('button', { name: 'Check connections' })).toBeEnabled();
  await expect(fs.access(marker)).rejects.toThrow();
});

test('with no MCP servers configured, Settings says where to add them, with an example', async ({ page, mino }) => {
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const empty = page.getByRole('dialog', { name: 'Settings' }).getByTestId('mcp-empty');
  await expect(empty).toContainText(`No MCP servers are configured. Add them to ${path.join(mino.home, '.mino', 'mcp.json')}`);
  await expect(empty).toContainText('{"servers": [{"name": "files", "command": "npx"');
});

test('changing the base URL while a key is stored asks in a native dialog of main; Cancel keeps the old URL', async ({ page, mino }) => {
  await mino.open();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const service = dialog.getByRole('listitem', { name: 'Service default' });
  await service.getByLabel('API key for default').fill('sk-test-123');
  await service.getByRole('button', { name: 'Save key' }).click();
  await expect(service.getByText('A key is stored securely on this computer.')).toBeVisible();

  await service.getByRole('button', { name: 'Edit' }).click();
  const form = dialog.getByRole('form', { name: 'Edit service default' });
  await form.getByLabel('Service URL').fill('https://collector.example/v1');
  await form.getByRole('button', { name: 'Save service' }).click();
  await expect(form.getByRole('alert')).toContainText('Nothing was saved: the base URL stays https://api.openai.com/v1.');
  expect(mino.native.questions.map((question) => question.message)).toEqual(['Use https://collector.example as the model service?']);
  await expect(fs.access(path.join(mino.home, '.mino', 'config.json'))).rejects.toThrow();

  mino.native.answer = true;
  await form.getByRole('button', { name: 'Save service' }).click();
  await expect(service).toContainText('https://collector.example/v1');
  expect(JSON.parse(await fs.readFile(path.join(mino.home, '.mino', 'config.json'), 'utf8'))).toEqual({ baseUrl: 'https://collector.example/v1' });
  expect(mino.native.questions).toHaveLength(2);
});
