// Images in a person's message, through a real Conversation against the
// loopback Responses service: kept once in ~/.mino/images, referred to from
// the log's user record, sent as input_image on every request of the session
// (also after it is resumed), replayed with the message, and refused before
// anything is saved or sent when the service takes no images.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { keepImage } from '../../../src/main/core/images/imageStore';
import { replayEvents } from '../../../src/main/core/sessions/replayEvents';
import type { SessionRecord } from '../../../src/main/core/sessions/records';
import { loadSession } from '../../../src/main/core/sessions/load';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import type { ImageRef } from '../../../src/shared/images';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { PNG_1X1 } from '../../support/images';

let fx: AgentFixture;
afterEach(async () => fx?.cleanup());

const PNG_URL = `data:image/png;base64,${PNG_1X1.toString('base64')}`;

async function logRecords(id: string): Promise<SessionRecord[]> {
  const text = await fs.readFile(path.join(fx.home, '.mino', 'sessions', `${id}.jsonl`), 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as SessionRecord);
}

/** The user messages of a request body, each as its text and the images it carried. */
function userParts(body: { input: Array<{ role?: string; content?: unknown }> }) {
  return body.input.filter((item) => item.role === 'user').map((item) => item.content);
}

describe('images in a message', () => {
  it('are saved by reference with the message, sent as input_image, and sent again after the session is resumed', async () => {
    fx = await makeAgentFixture();
    const kept = await keepImage(fx.home, PNG_1X1);
    const images: ImageRef[] = [{ sha256: kept.sha256, mediaType: 'image/png' }];
    fx.server.enqueue({ text: 'A red dot.' }, { text: 'Still a red dot.' });

    const conversation = await Conversation.start(fx.deps, fx.project);
    const recorder = eventRecorder();
    const outcome = await conversation.ask('What is this?', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent, images });
    expect(outcome.status).toBe('completed');
    expect(recorder.of('user_message')).toEqual([{ type: 'user_message', text: 'What is this?', images }]);
    expect(userParts(fx.server.requests[0]!.body)).toEqual([
      [
        { type: 'input_text', text: 'What is this?' },
        { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
      ],
    ]);
    const id = conversation.id;
    await conversation.close();

    // The log refers to the image by digest; its bytes are not in the log.
    const log = await logRecords(id);
    expect(log.filter((record) => record.type === 'user')).toEqual([{ type: 'user', text: 'What is this?', images, at: expect.any(String) }]);
    expect(JSON.stringify(log)).not.toContain(PNG_1X1.toString('base64'));

    // Resumed, the history still carries it, the replay shows it, and the next request sends it again.
    const resumed = await Conversation.resume(fx.deps, id);
    expect(resumed.historyItems[0]).toEqual({ type: 'message', role: 'user', text: 'What is this?', images });
    const loaded = await loadSession(fx.home, id, new ToolRegistry(fx.deps.builtinTools).validateCall);
    expect(replayEvents(loaded.records, new ToolRegistry(fx.deps.builtinTools).display).filter((event) => event.type === 'user_message')).toEqual([{ type: 'user_message', text: 'What is this?', images }]);
    await resumed.ask('And now?', { mode: 'manual', approver: recordingApprover() });
    expect(userParts(fx.server.requests[1]!.body)).toEqual([
      [
        { type: 'input_text', text: 'What is this?' },
        { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
      ],
      'And now?',
    ]);
    await resumed.close();
  });

  it('are refused before anything is saved or sent when the service takes no images', async () => {
    fx = await makeAgentFixture();
    const kept = await keepImage(fx.home, PNG_1X1);
    const deps = { ...fx.deps, turnSettings: async () => ({ ...(await fx.deps.turnSettings()), images: false }) };
    const conversation = await Conversation.start(deps, fx.project);
    const recorder = eventRecorder();
    const outcome = await conversation.ask('What is this?', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent, images: [{ sha256: kept.sha256, mediaType: 'image/png' }] });
    expect(outcome).toEqual({
      status: 'failed',
      message:
        'The model service "default" is set to take no images ("images": false in ~/.mino/config.json), so your message was not sent. Remove the image and send it again, or use a service whose model reads images.',
    });
    expect(recorder.of('turn_end')).toHaveLength(1);
    expect(fx.server.requests).toHaveLength(0);
    expect((await logRecords(conversation.id)).filter((record) => record.type === 'user')).toEqual([]);
    await conversation.close();
  });
});
