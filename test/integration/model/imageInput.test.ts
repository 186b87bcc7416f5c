// A person's images reach the model on every wire, each in its own form:
// responses as input_image, chat as an image_url part, anthropic as an image
// block, all with the bytes inline (data: URL or base64), read from
// ~/.mino/images as the agent loop reads them. Against the loopback mocks.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imageDataFor } from '../../../src/main/core/images/imageInputs';
import { keepImage } from '../../../src/main/core/images/imageStore';
import { createModelClient } from '../../../src/main/core/model/client';
import { MISSING_IMAGE_TEXT } from '../../../src/main/core/model/imageParts';
import type { HistoryItem, ModelClient } from '../../../src/main/core/model/types';
import type { WireProtocol } from '../../../src/shared/modelServices';
import { GIF_HEADER, PNG_1X1 } from '../../support/images';
import { startMockAnthropicServer } from '../../support/mockAnthropicServer';
import { startMockChatServer } from '../../support/mockChatServer';
import { startMockResponsesServer } from '../../support/mockResponsesServer';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { collect } from './fixtures/wireCalls';

let t: TempHome;
const closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  t = await makeTempHome({ prefix: 'image-wires' });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await t.cleanup();
});

const PNG_URL = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
const GIF_URL = `data:image/gif;base64,${GIF_HEADER.toString('base64')}`;

/** A mock of `protocol` with one answer queued, its client, and what it received. */
async function wire(protocol: WireProtocol): Promise<{ client: ModelClient; body: () => any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const server = protocol === 'responses' ? await startMockResponsesServer() : protocol === 'chat' ? await startMockChatServer() : await startMockAnthropicServer();
  closers.push(() => server.close());
  server.enqueue({ text: 'A red dot.' });
  const client = createModelClient({ protocol, baseURL: server.baseURL, apiKey: 'sk-test', model: 'vision', maxRetries: 0, env: {} });
  return { client, body: () => server.requests[0]!.body };
}

/** A message carrying two kept images, and the request the loop would send for it. */
async function imageRequest(): Promise<{ input: HistoryItem[]; imageData: Awaited<ReturnType<typeof imageDataFor>> }> {
  const png = await keepImage(t.home, PNG_1X1);
  const gif = await keepImage(t.home, GIF_HEADER);
  const input: HistoryItem[] = [
    { type: 'message', role: 'user', text: 'What is in these?', images: [{ sha256: png.sha256, mediaType: 'image/png' }, { sha256: gif.sha256, mediaType: 'image/gif' }] },
  ];
  return { input, imageData: await imageDataFor(t.home, input) };
}

describe('images on the wire', () => {
  it('responses: the text, then each image as input_image with a data: URL, in order', async () => {
    const { client, body } = await wire('responses');
    const { response } = await collect(client, { instructions: '', tools: [], ...(await imageRequest()) });
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'A red dot.' }]);
    expect(body().input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in these?' },
          { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
          { type: 'input_image', image_url: GIF_URL, detail: 'auto' },
        ],
      },
    ]);
  });

  it('chat: the text, then each image as an image_url part holding a data: URL', async () => {
    const { client, body } = await wire('chat');
    await collect(client, { instructions: 'Be brief.', tools: [], ...(await imageRequest()) });
    expect(body().messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: PNG_URL } },
          { type: 'image_url', image_url: { url: GIF_URL } },
        ],
      },
    ]);
  });

  it('anthropic: the text, then each image as a base64 image block with its media type', async () => {
    const { client, body } = await wire('anthropic');
    await collect(client, { instructions: '', tools: [], ...(await imageRequest()) });
    const [message] = body().messages;
    expect(message.role).toBe('user');
    expect(message.content.map(({ cache_control: _ignored, ...block }: { cache_control?: unknown }) => block)).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1.toString('base64') } },
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: GIF_HEADER.toString('base64') } },
    ]);
  });

  it('an image no longer kept goes as a line saying so, and the request still holds', async () => {
    const { client, body } = await wire('chat');
    const input: HistoryItem[] = [{ type: 'message', role: 'user', text: 'And this?', images: [{ sha256: 'f'.repeat(64), mediaType: 'image/png' }] }];
    await collect(client, { instructions: '', tools: [], input, imageData: await imageDataFor(t.home, input) });
    expect(body().messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'text', text: MISSING_IMAGE_TEXT }] }]);
  });
});
