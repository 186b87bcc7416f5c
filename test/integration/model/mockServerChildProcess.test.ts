import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';

let server: MockResponsesServer;
beforeEach(async () => {
  server = await startMockResponsesServer();
});
afterEach(async () => {
  await server.close();
});

it('serves a scripted streamed answer to a separate process pointed at its baseURL', async () => {
  server.enqueue({ text: 'hello, child', id: 'resp_child' });
  const script = path.join(__dirname, 'fixtures', 'respondOnce.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, server.baseURL], {
    cwd: path.resolve(__dirname, '../../..'),
  });
  const result = JSON.parse(stdout) as { deltas: string[]; response: { id: string; output: unknown[] } };
  expect(result.deltas.join('')).toBe('hello, child');
  expect(result.response).toMatchObject({ id: 'resp_child', output: [{ type: 'message', role: 'assistant', text: 'hello, child' }] });
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]!.raw).toContain('from a child process');
});
