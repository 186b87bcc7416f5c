// `mino exec --image FILE` (repeatable): each image checked from its bytes,
// kept in ~/.mino/images, referred to from the session log, and sent with the
// prompt; a file that is not an image, one too large, too many, or a service
// set to take no images stop the run (exit 2) before a session opens or
// anything is sent. A real child process against the loopback mocks.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';
import { GIF_HEADER, PNG_1X1, pngOfSize } from '../../support/images';
import { startMockChatServer, type MockChatServer } from '../../support/mockChatServer';

let fx: AgentFixture;
let chat: MockChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await fx?.cleanup();
});

async function sessionFiles(): Promise<string[]> {
  return fs.readdir(path.join(fx.home, '.mino', 'sessions')).catch(() => []);
}

describe('mino exec --image', () => {
  it('sends each image with the prompt and saves the message with their references', async () => {
    fx = await makeAgentFixture();
    await fs.writeFile(fx.file('shot.png'), PNG_1X1);
    await fs.writeFile(fx.file('anim.gif'), GIF_HEADER);
    fx.server.enqueue({ text: 'Two images.' });
    const run = await runCli(fx, ['exec', '--json', '--image', 'shot.png', '--image', 'anim.gif', 'What are these?']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [message] = fx.server.requests[0]!.body.input;
    expect(message).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'What are these?' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG_1X1.toString('base64')}`, detail: 'auto' },
        { type: 'input_image', image_url: `data:image/gif;base64,${GIF_HEADER.toString('base64')}`, detail: 'auto' },
      ],
    });
    const [logName] = await sessionFiles();
    const log = (await fs.readFile(path.join(fx.home, '.mino', 'sessions', logName!), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; images?: unknown });
    const kept = await fs.readdir(path.join(fx.home, '.mino', 'images'));
    expect(kept).toHaveLength(2);
    expect(log.find((record) => record.type === 'user')?.images).toEqual([
      { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), mediaType: 'image/png' },
      { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), mediaType: 'image/gif' },
    ]);
  });

  it('refuses a file that is not an image, one over 5 MB, and more than 8, before a session opens', async () => {
    fx = await makeAgentFixture();
    await fs.writeFile(fx.file('notes.png'), 'not an image at all');
    await fs.writeFile(fx.file('big.png'), pngOfSize(6 * 1024 * 1024));
    const text = await runCli(fx, ['exec', '--image', 'notes.png', 'What is this?']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('notes.png is not a PNG, JPEG, WebP or GIF image (Mino reads its type from its bytes, not its name).');
    const big = await runCli(fx, ['exec', '--image', 'big.png', 'What is this?']);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('big.png is 6 MB; an image can be at most 5 MB.');
    const many = await runCli(fx, ['exec', ...Array.from({ length: 9 }, () => ['--image', 'x.png']).flat(), 'What are these?']);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('9 images given: A message can carry at most 8 images.');
    expect(fx.server.requests).toHaveLength(0);
    expect(await sessionFiles()).toEqual([]);
  });

  it('refuses images for a service set to take none ("images": false), sending nothing', async () => {
    fx = await makeAgentFixture();
    chat = await startMockChatServer();
    const local = { name: 'local', protocol: 'chat', baseUrl: chat.baseURL, model: 'text-only', images: false };
    await writePrivateFile((await ensureMinoHome(fx.home)).config, JSON.stringify({ bashSandbox: false, services: [local] }));
    await fs.writeFile(fx.file('shot.png'), PNG_1X1);
    const run = await runCli(fx, ['exec', '--service', 'local', '--image', 'shot.png', 'What is this?']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The model service "local" is set to take no images ("images": false in ~/.mino/config.json), so your message was not sent.');
    expect(chat.requests).toHaveLength(0);
    expect(await sessionFiles()).toEqual([]);
  });
});
