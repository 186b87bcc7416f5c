// The book's greet.go scenario (read, then an approved edit) end to end with
// `mino exec --service NAME` on a `chat` and on an `anthropic` service: a real
// child process, a real temp home, the loopback mock of each wire streaming
// in small chunks. The model's reasoning goes back to the service on the
// next request as the wire carries it (chat's reasoning_content, Anthropic's
// thinking block with its signature unchanged), and each wire's usage
// reaches the turn's end.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';
import { startMockAnthropicServer } from '../../support/mockAnthropicServer';
import { startMockChatServer } from '../../support/mockChatServer';
import type { MockWireServer } from '../../support/mockWireServer';

const GREET = 'package main\n\nconst greeting = "hi"\n';
const THOUGHT = 'The greeting lives in greet.go; read it before editing.';
const SIGNATURE = 'EqQBCkYIBxgCKkB+sig/=0123456789abcdef';

let fx: AgentFixture;
let wire: MockWireServer;
afterEach(async () => {
  await wire?.close();
  await fx?.cleanup();
});

async function withService(protocol: 'chat' | 'anthropic', server: MockWireServer): Promise<void> {
  wire = server;
  fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
  const service = { name: 'coding', protocol, baseUrl: server.baseURL, model: 'coder-1', apiKeyEnv: 'CODING_KEY' };
  // Reasoning on, so the wires ask for it and keep what comes back.
  await writePrivateFile((await ensureMinoHome(fx.home)).config, JSON.stringify({ bashSandbox: false, reasoning: 'on', services: [service] }));
}

/** Reads greet.go (thinking first), asks to edit "hi" into "hello", then answers; usage on every answer. */
function scriptGreet(server: MockWireServer): void {
  const usage = { input_tokens: 1200, output_tokens: 40, cached_tokens: 1000 };
  server.enqueue(
    { reasoning: { text: THOUGHT, signature: SIGNATURE }, calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'call_read' }], usage },
    { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'call_edit' }], usage },
    { text: 'I changed greeting from "hi" to "hello" on line 3 of greet.go.', usage: { ...usage, output_tokens: 25 } },
  );
}

async function runGreet(): Promise<Array<Record<string, unknown>>> {
  fx.env.CODING_KEY = 'sk-coding';
  const run = await runCli(fx, ['exec', '--json', '--approve', 'always', '--service', 'coding', 'Change the greeting in greet.go to hello']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toBe('package main\n\nconst greeting = "hello"\n');
  // Nothing went to the default service.
  expect(fx.server.requests).toHaveLength(0);
  return run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The turn's end as `--json` prints it. */
function turnEnd(events: Array<Record<string, unknown>>): Record<string, unknown> {
  const end = events.find((event) => event.type === 'turn_end');
  if (!end) throw new Error(`No turn_end in ${JSON.stringify(events)}`);
  return end;
}

// A child process and three streamed answers per test: slow on a loaded two-core machine.
describe('the greet.go edit through mino exec --service', { timeout: 120_000 }, () => {
  it('on a chat service: the reasoning goes back as reasoning_content, the edit applies, usage is reported', async () => {
    await withService('chat', await startMockChatServer());
    scriptGreet(wire);
    const events = await runGreet();
    expect(events.filter((event) => event.type === 'reasoning').map((event) => event.text).join('')).toBe(THOUGHT);
    expect(wire.requests).toHaveLength(3);
    expect(wire.requests[0]!.headers.authorization).toBe('Bearer sk-coding');
    const assistant = (wire.requests[1]!.body as { messages: Array<Record<string, unknown>> }).messages.find((m) => m.role === 'assistant');
    expect(assistant).toMatchObject({ reasoning_content: THOUGHT, tool_calls: [expect.objectContaining({ id: 'call_read' })] });
    // The turn's usage is the sum of its three requests'.
    expect(turnEnd(events)).toMatchObject({ status: 'completed', usage: { input_tokens: 3600, cached_input_tokens: 3000, output_tokens: 105 } });
  });

  it('on an anthropic service: the thinking block goes back with its signature, the edit applies, usage is reported', async () => {
    await withService('anthropic', await startMockAnthropicServer());
    scriptGreet(wire);
    const events = await runGreet();
    expect(events.filter((event) => event.type === 'reasoning').map((event) => event.text).join('')).toBe(THOUGHT);
    expect(wire.requests).toHaveLength(3);
    expect(wire.requests[0]!.headers['x-api-key']).toBe('sk-coding');
    const assistant = (wire.requests[1]!.body as { messages: Array<{ role: string; content: unknown }> }).messages.find((m) => m.role === 'assistant');
    expect(assistant?.content).toEqual([
      { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE },
      { type: 'tool_use', id: 'call_read', name: 'read_file', input: { path: 'greet.go' } },
    ]);
    // Anthropic counts cached input apart from input_tokens; Mino reports input as the whole prompt, as for the
    // other wires (1,200 + 1,000 cached per request), summed over the turn's three requests.
    expect(turnEnd(events)).toMatchObject({ status: 'completed', usage: { input_tokens: 6600, cached_input_tokens: 3000, output_tokens: 105 } });
  });
});
