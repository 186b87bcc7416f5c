// Less noise in the session window: an MCP problem that stands is told once,
// not on every turn, and window messages can be dismissed while the mode stays
// in the header.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ask, expect, loosenMode, test } from './fixtures';

test('the same MCP failure is noticed once over two turns, not on each', async ({ page, mino }) => {
  const minoDir = path.join(mino.home, '.mino');
  await fs.mkdir(minoDir, { recursive: true, mode: 0o700 });
  const missing = path.join(mino.home, 'no-such-mcp-server');
  await fs.writeFile(path.join(minoDir, 'mcp.json'), JSON.stringify({ servers: [{ name: 'broken', command: missing }] }), { mode: 0o600 });
  mino.server.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
  await mino.open();
  await mino.startSession();
  await ask(page, 'First question?');
  await expect(page.getByTestId('assistant-message').last()).toContainText('First answer.');
  await ask(page, 'Second question?');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Second answer.');
  const notices = page.getByTestId('notice').filter({ hasText: 'broken' });
  await expect(notices).toHaveCount(1);
});

test('a window message is dismissed with its close button, and bypass stays visible in the header', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  await loosenMode(page, mino, 'bypass');
  const message = page.getByTestId('window-message');
  await expect(message).toContainText('bypass');
  await page.getByRole('button', { name: 'Dismiss message' }).click();
  await expect(message).toHaveCount(0);
  await expect(page.getByRole('banner').getByLabel('Permission mode')).toHaveValue('bypass');
});

test('a message about a session open in another window can be dismissed and never covers the transcript', async ({ mino }) => {
  await mino.open();
  const id = await mino.startSession();
  const second = await mino.openSecondPage();
  await mino.startSession(second);
  await second.getByTestId('sidebar-item').filter({ hasText: id }).getByRole('button', { name: /^Untitled session/ }).click();
  const message = second.getByTestId('window-message');
  await expect(message).toHaveText(`Session ${id} is open in another window; that window was brought to the front.`);
  // In the flow above the conversation: the transcript starts below the message, not under it.
  const messageBox = (await message.boundingBox())!;
  const transcriptBox = (await second.getByTestId('transcript').boundingBox())!;
  expect(transcriptBox.y).toBeGreaterThanOrEqual(messageBox.y + messageBox.height);
  await second.getByRole('button', { name: 'Dismiss message' }).click();
  await expect(message).toHaveCount(0);
});
