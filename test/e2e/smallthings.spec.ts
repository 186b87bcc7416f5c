// The small things of a calm window: the sessions list can be made wider with
// the mouse or the keyboard and stays so; its icons are drawn, not a font's
// missing glyph; a long pasted message folds with Show all; a command's whole
// saved output opens in a scrollable view; a session open in another window
// is marked in the list.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function ask(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

async function widthOf(page: Page, testId: string): Promise<number> {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`${testId} is not shown.`);
  return Math.round(box.width);
}

test('the sessions list is resized with the keyboard and the mouse, and the width is remembered', async ({ page, mino }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await mino.open();
  await mino.startSession();
  const before = await widthOf(page, 'session-sidebar');
  const splitter = page.getByRole('separator', { name: 'Width of the sessions list' });
  await splitter.focus();
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
  await expect.poll(() => widthOf(page, 'session-sidebar')).toBe(before + 80);
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 80));

  // Dragged with the mouse to 400 px from the list's left edge.
  const sidebar = (await page.getByTestId('session-sidebar').boundingBox())!;
  const handle = (await splitter.boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + 40);
  await page.mouse.down();
  await page.mouse.move(sidebar.x + 400, handle.y + 40, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => widthOf(page, 'session-sidebar')).toBe(400);

  // Another window of the app opens with the width chosen here.
  const second = await mino.openSecondPage();
  await second.setViewportSize({ width: 1280, height: 800 });
  await mino.startSession(second);
  await expect.poll(() => widthOf(second, 'session-sidebar')).toBe(400);
});

test('the sidebar\'s icons are drawn with a width, not left to a font that may lack them', async ({ mino }) => {
  await mino.open();
  await mino.startSession();
  // A second window with a session of its own lists both: the other one with its open-in-new-window button.
  const second = await mino.openSecondPage();
  await mino.startSession(second);
  await expect(second.getByTestId('sidebar-item')).toHaveCount(2);
  const buttons = second.getByTestId('session-sidebar').locator('.sidebar-actions button');
  await expect(buttons).toHaveCount(3);
  for (const button of await buttons.all()) {
    // No text glyph: the name is the button's label, the picture an inline drawing.
    await expect(button).toHaveText('');
    const icon = (await button.getByTestId('icon').boundingBox())!;
    expect(icon.width).toBeGreaterThan(0);
    expect(icon.height).toBeGreaterThan(0);
  }
});

test('a long pasted message folds to its first lines, and Show all opens it whole', async ({ page, mino }) => {
  mino.server.enqueue({ text: 'Read it.' });
  await mino.open();
  await mino.startSession();
  const pasted = Array.from({ length: 60 }, (_, i) => `log line ${i + 1}: something happened`).join('\n');
  await ask(page, pasted);
  await expect(page.getByTestId('assistant-message').last()).toContainText('Read it.');
  const message = page.getByTestId('user-message').getByTestId('message-text');
  const folded = (await message.boundingBox())!.height;
  expect(folded).toBeLessThan(400);
  await page.getByRole('button', { name: 'Show all (60 lines)' }).click();
  await expect.poll(async () => (await message.boundingBox())!.height).toBeGreaterThan(folded * 2);
  await expect(page.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
});

test('a command\'s whole saved output opens in a scrollable view', async ({ page, mino }) => {
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'for i in $(seq 1 80); do echo "row $i"; done', sandbox: false }, call_id: 'call_rows' }] }, { text: 'Printed.' });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Print the rows.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Printed.');
  await page.getByTestId('tool-card').getByRole('button', { name: 'Open whole output' }).click();
  const view = page.getByRole('dialog', { name: 'Output of bash' });
  const text = view.getByTestId('output-dialog-text');
  await expect(text).toContainText('row 1\n');
  await expect(text).toContainText('row 80');
  // It scrolls inside the dialog, which stays within the window.
  expect(await text.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  await expect(view.getByRole('button', { name: 'Close' })).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
});

test('the list marks a session that is open in another window', async ({ page, mino }) => {
  await mino.open();
  const id = await mino.startSession();
  const second = await mino.openSecondPage();
  await mino.startSession(second);
  const marked = second.getByTestId('sidebar-item').filter({ hasText: id });
  await expect(marked.getByTestId('open-elsewhere')).toHaveText('Open in another window');
  // The window's own session is not marked, nor is the other one in its own window.
  const own = second.getByTestId('sidebar-item').filter({ hasNotText: id });
  await expect(own.getByTestId('open-elsewhere')).toHaveCount(0);
  await expect(page.getByTestId('sidebar-item').filter({ hasText: id }).getByTestId('open-elsewhere')).toHaveCount(0);
});
