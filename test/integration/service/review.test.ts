// Review of a file change through the real service: main decides what an
// approval with a review writes (from the hunks it offered, or the person's
// text, checked), binds it to its SHA-256, records it, and tells the model;
// and an open ask whose file changes on disk is sent again saying so.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import * as path from 'node:path';
import { outputsIn } from '../../support/agentFixture';
import { EDIT_GREETING, GREET, makeServiceHarness, type ServiceHarness } from './harness';

const LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`);
const BEFORE = LINES.join('');
const PROPOSED = LINES.map((line, i) => (i === 1 ? 'line two\n' : i === 17 ? 'line eighteen\n' : line)).join('');
const SECOND_ONLY = LINES.map((line, i) => (i === 17 ? 'line eighteen\n' : line)).join('');
const WRITE_LIST = { calls: [{ name: 'write_file', arguments: { path: 'list.txt', content: PROPOSED, mode: 'overwrite' }, call_id: 'call_write' }] };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('review of a file change through the service', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('offers the change by hunk, writes only the hunks kept, records that content and tells the model', async () => {
    h = await makeServiceHarness({ 'list.txt': BEFORE });
    h.server.enqueue(WRITE_LIST, { text: 'Done.' });
    const { client, session } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Rename two lines.' });
    const request = await client.next('approval:request');
    expect(request.review).toMatchObject({ path: 'list.txt', before: BEFORE, proposed: PROPOSED });
    expect(request.review?.hunks).toHaveLength(2);

    const answer = { requestId: request.requestId, approved: true, review: { path: 'list.txt', rejectedHunks: [0] } };
    expect(await client.value('approvals:answer', answer)).toEqual({ accepted: true });
    await client.turnFinished();
    expect(await fs.readFile(h.file('list.txt'), 'utf8')).toBe(SECOND_ONLY);

    const [sent] = outputsIn(h.server.requests.at(-1)!.body);
    expect(sent).toMatchObject({ call_id: 'call_write', status: 'completed' });
    expect(sent?.output).toContain('rejected hunk 1 (of 2 in your diff)');
    expect(sent?.output).toContain(sha256(SECOND_ONLY));
    // The log keeps what was written (the change record's digest) and the result as the model got it; replay runs nothing.
    const log = await fs.readFile(path.join(h.home, '.mino', 'sessions', `${session.id}.jsonl`), 'utf8');
    const records = log.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    const change = records.find((record) => record.type === 'change');
    expect(change).toMatchObject({ path: 'list.txt', after: { kind: 'file', sha256: sha256(SECOND_ONLY) } });
    expect(records.find((record) => record.type === 'tool_result')).toMatchObject({ output: expect.stringContaining(sha256(SECOND_ONLY)) });
  });

  it('writes the person\'s own text exactly, and refuses a review of another path, a NUL or more than 256 KiB, leaving the ask open', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'Done.' });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    const reviewed = (review: unknown) => client.value('approvals:answer', { requestId: request.requestId, approved: true, review });

    expect(await reviewed({ path: 'other.go', rejectedHunks: [], content: 'x' })).toMatchObject({ accepted: false, open: true, message: expect.stringContaining('this request changes greet.go') });
    expect(await reviewed({ path: 'greet.go', rejectedHunks: [], content: 'a\0b' })).toMatchObject({ accepted: false, open: true, message: expect.stringContaining('NUL') });
    expect(await reviewed({ path: 'greet.go', rejectedHunks: [], content: 'é'.repeat(200 * 1024) })).toMatchObject({ accepted: false, open: true, message: expect.stringContaining('256 KiB') });
    expect(await reviewed({ path: 'greet.go', rejectedHunks: [5] })).toMatchObject({ accepted: false, open: true });
    // The schema refuses text over the limit before main looks at it.
    expect((await client.call('approvals:answer', { requestId: request.requestId, approved: true, review: { path: 'greet.go', rejectedHunks: [], content: 'x'.repeat(256 * 1024 + 1) } })).ok).toBe(false);
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);

    const mine = 'package main\n\nconst greeting = "hey"\n';
    expect(await reviewed({ path: 'greet.go', rejectedHunks: [], content: mine })).toEqual({ accepted: true });
    await client.turnFinished();
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(mine);
    const [sent] = outputsIn(h.server.requests.at(-1)!.body);
    expect(sent?.output).toContain('rewrote the text');
    expect(sent?.output).toContain('-const greeting = "hello"\n+const greeting = "hey"');
  });

  it('a review that rejects everything writes nothing and the model is told', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'Left it.' });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    await client.value('approvals:answer', { requestId: request.requestId, approved: true, review: { path: 'greet.go', rejectedHunks: [0] } });
    await client.turnFinished();
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);
    expect(outputsIn(h.server.requests.at(-1)!.body)).toEqual([expect.objectContaining({ status: 'denied', output: expect.stringContaining('rejected every part') })]);
  });

  it('sends an open ask again, saying so, when its file changes on disk; a yes then writes nothing and the model is told to read it again', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'I will read it again.' });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    expect(request.targetChanged).toBeUndefined();

    const theirs = 'package main\n\nconst greeting = "hi there"\n';
    await fs.writeFile(h.file('greet.go'), theirs);
    const again = await client.next('approval:request', (payload) => payload.targetChanged !== undefined);
    expect(again.requestId).toBe(request.requestId);
    expect(again.targetChanged).toContain('greet.go changed on disk');

    expect(await client.value('approvals:answer', { requestId: request.requestId, approved: true })).toEqual({ accepted: true });
    await client.turnFinished();
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(theirs);
    expect(outputsIn(h.server.requests.at(-1)!.body)).toEqual([
      expect.objectContaining({ status: 'failed', output: expect.stringContaining('changed on disk while the user was reviewing') }),
    ]);
  });

  it('an ask whose file is put back as it was may be approved again', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'Done.' });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    await fs.writeFile(h.file('greet.go'), 'changed\n');
    await client.next('approval:request', (payload) => payload.targetChanged !== undefined);
    const from = client.received.length;
    await fs.writeFile(h.file('greet.go'), GREET);
    await client.next('approval:request', (payload) => payload.targetChanged === undefined, from);
    expect(await client.value('approvals:answer', { requestId: request.requestId, approved: true })).toEqual({ accepted: true });
    await client.turnFinished();
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe('package main\n\nconst greeting = "hello"\n');
  });
});
