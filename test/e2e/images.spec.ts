// Images in a message: pasted into the message box or attached with the
// picker, they show as thumbnails in the composer, travel to main as bytes
// (checked there: type from the bytes, at most 5 MB), go to the model with
// the message, and show in the transcript, also when the session is opened
// again after a reload. An oversized file is refused saying so.
import * as fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { PNG_1X1, pngOfSize } from '../support/images';
import { seriousAxeFindings } from './axe';
import { expect, test, type MinoHarness } from './fixtures';

const PNG_URL = `data:image/png;base64,${PNG_1X1.toString('base64')}`;

/** Pastes a PNG (as a browser puts a copied screenshot on the clipboard) into the message box. */
async function pastePng(page: Page, name: string): Promise<void> {
  const base64 = PNG_1X1.toString('base64');
  await page.getByRole('textbox', { name: 'Message to Mino' }).evaluate(
    (box, { base64, name }) => {
      const page = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
        ClipboardEvent: new (type: string, init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
        atob(text: string): string;
        Uint8Array: typeof Uint8Array;
      };
      const bytes = page.Uint8Array.from(page.atob(base64), (char) => char.charCodeAt(0));
      const clipboardData = new page.DataTransfer();
      clipboardData.items.add(new page.File([bytes], name, { type: 'image/png' }));
      (box as unknown as { dispatchEvent(event: unknown): void }).dispatchEvent(new page.ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    },
    { base64, name },
  );
}

test('a pasted and an attached image show in the composer, go to the model with the message, and show in the transcript after a reload', async ({ page, mino }) => {
  await mino.writeProject({ 'README.md': '# demo\n' });
  await fs.writeFile(mino.projectFile('dot.png'), PNG_1X1);
  await mino.open();
  const id = await mino.startSession();

  await pastePng(page, 'screenshot.png');
  // The same content attached again is the same image; a second, different one is another.
  await page.getByTestId('image-picker').setInputFiles({ name: 'other.png', mimeType: 'image/png', buffer: pngOfSize(64) });
  const attached = page.getByTestId('attached-image');
  await expect(attached).toHaveCount(2);
  await expect(page.getByRole('img', { name: 'Attached image 1: screenshot.png' })).toHaveAttribute('src', PNG_URL);
  expect(await seriousAxeFindings(page)).toEqual([]);
  await page.getByRole('button', { name: 'Remove other.png' }).click();
  await expect(attached).toHaveCount(1);

  mino.server.enqueue({ text: 'A single red dot.' });
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill('What is in this screenshot?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('assistant-message')).toContainText('A single red dot.');
  await expect(attached).toHaveCount(0);
  // The model request (the service may also have been asked for its models).
  const sent = mino.server.requests.filter((request) => request.body?.input);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.body.input[0].content).toEqual([
    { type: 'input_text', text: 'What is in this screenshot?' },
    { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
  ]);
  const thumbnail = page.getByTestId('user-message').getByRole('img', { name: 'Image 1 of this message' });
  await expect(thumbnail).toHaveAttribute('src', PNG_URL);

  // Reloaded, the window opens the session again from its log: the thumbnail is read back from ~/.mino/images.
  await page.reload();
  await page.locator('.recent-item').first().click();
  await page.getByRole('button', { name: new RegExp(`^Resume session ${id}`) }).click();
  await expect(page.getByTestId('current-session-id')).toHaveText(id);
  await expect(page.getByTestId('user-message').getByRole('img', { name: 'Image 1 of this message' })).toHaveAttribute('src', PNG_URL);
});

test('an image over 5 MB is refused saying so, and nothing is attached', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  await page.getByTestId('image-picker').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: pngOfSize(6 * 1024 * 1024) });
  await expect(page.getByTestId('image-refusal')).toHaveText('huge.png is 6 MB; an image can be at most 5 MB. Make it smaller (crop it, or save it as JPEG) and attach it again.');
  await expect(page.getByTestId('attached-image')).toHaveCount(0);
  expect(await seriousAxeFindings(page)).toEqual([]);
  // A file whose name says PNG but whose bytes do not is refused by main, which reads the bytes.
  await page.getByTestId('image-picker').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await expect(page.getByTestId('image-refusal')).toContainText('"fake.png" is not a PNG, JPEG, WebP or GIF image (Mino reads its type from its bytes, not its name).');
  await expect(page.getByTestId('attached-image')).toHaveCount(0);
  await expect(fs.readdir(`${mino.home}/.mino/images`)).rejects.toThrow(/ENOENT/);
});

test('Edit and resend sends the message\'s images again with the edited text', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  await page.getByTestId('image-picker').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await expect(page.getByTestId('attached-image')).toHaveCount(1);
  mino.server.enqueue({ text: 'A dot.' });
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill('What is this?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('assistant-message')).toContainText('A dot.');

  await page.getByTestId('user-message').getByRole('button', { name: 'Edit and resend' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit and resend' });
  await expect(dialog).toContainText('The image of this message is sent again with it.');
  await dialog.getByRole('textbox', { name: 'Your message' }).fill('What colour is this?');
  mino.server.enqueue({ text: 'Red.' });
  await dialog.getByRole('button', { name: 'Resend as a new session' }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Red.');
  const sent = mino.server.requests.filter((request) => request.body?.input).at(-1)!;
  expect(sent.body.input.at(-1).content).toEqual([
    { type: 'input_text', text: 'What colour is this?' },
    { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
  ]);
  await expect(page.getByTestId('user-message').last().getByRole('img', { name: 'Image 1 of this message' })).toHaveAttribute('src', PNG_URL);
});

/** The answer "A dot." came to "What is this?", which went to the model with the dot, and the tray is empty. */
async function expectDotAnswered(page: Page, mino: MinoHarness): Promise<void> {
  await expect(page.getByTestId('assistant-message').last()).toContainText('A dot.');
  const sent = mino.server.requests.filter((request) => request.body?.input).at(-1)!;
  expect(sent.body.input.at(-1).content).toEqual([
    { type: 'input_text', text: 'What is this?' },
    { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
  ]);
  await expect(page.getByTestId('attached-image')).toHaveCount(0);
}

test('a message sent while its image is still being attached waits for it, and goes with it', async ({ page, mino }) => {
  // The bridge's requests to attach an image are held until the test lets them through.
  const held: Array<() => void> = [];
  await page.routeWebSocket(/^ws:\/\/127\.0\.0\.1/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      if (String(message).includes('"channel":"images:add"')) held.push(() => server.send(message));
      else server.send(message);
    });
  });
  await mino.open();
  await mino.startSession();
  await page.getByTestId('image-picker').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill('What is this?');
  await expect.poll(() => held.length).toBe(1);
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await expect(send).toBeDisabled();
  await expect(page.getByText('Attaching the image: Send waits for it.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Message to Mino' }).press('Enter');

  mino.server.enqueue({ text: 'A dot.' });
  held.splice(0).forEach((release) => release());
  await expect(page.getByTestId('attached-image')).toHaveCount(1);
  await send.click();
  await expectDotAnswered(page, mino);
});

test('a turn that fails after its message was saved keeps the images with it: the tray stays empty and Retry sends them', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  await page.getByTestId('image-picker').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG_1X1 });
  const serverError = { httpStatus: 500, body: { error: { message: 'Upstream is down.', type: 'server_error' } } };
  mino.server.enqueue(serverError, serverError, serverError, serverError);
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill('What is this?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('turn-failed')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('attached-image')).toHaveCount(0);

  mino.server.enqueue({ text: 'A dot.' });
  await page.getByTestId('turn-failed').getByRole('button', { name: 'Retry' }).click();
  await expectDotAnswered(page, mino);
});
