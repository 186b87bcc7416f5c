// `mino exec --service NAME --model ID`: a session keeps its own service and
// model, recorded in its log, continues with them, and may switch mid-session
// without losing its history. A real child process, a real temp home, the
// loopback mock of each wire.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import type { SessionRecord } from '../../../src/main/core/sessions/records';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';
import { startMockChatServer, type MockChatServer } from '../../support/mockChatServer';

const GREET = 'package main\n\nconst greeting = "hi"\n';

let fx: AgentFixture;
let chat: MockChatServer;
afterEach(async () => {
  await chat?.close();
  await fx?.cleanup();
});

/** A fixture whose settings list a `local` chat service (on loopback, so keyless) beside the default responses one. */
async function withLocalService(config: object = {}): Promise<void> {
  fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
  chat = await startMockChatServer();
  const local = { name: 'local', protocol: 'chat', baseUrl: chat.baseURL, model: 'local-model', contextWindow: 32_000 };
  await writePrivateFile((await ensureMinoHome(fx.home)).config, JSON.stringify({ bashSandbox: false, services: [local], ...config }));
}

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function records(id: string): Promise<SessionRecord[]> {
  const text = await fs.readFile(path.join(fx.home, '.mino', 'sessions', `${id}.jsonl`), 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as SessionRecord);
}

const modelRecords = (log: SessionRecord[]) => log.filter((record) => record.type === 'model').map(({ service, model }) => ({ service, model }));

// Each test runs the command two or three times as a child process: slow on a loaded two-core machine.
describe('mino exec --service and --model', { timeout: 120_000 }, () => {
  it('runs the greet.go edit on the named service, records the choice before the first turn and the model of each response', async () => {
    await withLocalService();
    chat.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'c_read' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'c_edit' }] },
      { text: 'Changed it.' },
    );
    const run = await runCli(fx, ['exec', '--json', '--approve', 'always', '--service', 'local', '--model', 'tiny', 'Change the greeting']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toContain('"hello"');
    // Every request went to the chat service, naming the model asked for; none to the default service.
    expect(chat.requests.map((request) => (request.body as { model: string }).model)).toEqual(['tiny', 'tiny', 'tiny']);
    expect(fx.server.requests).toHaveLength(0);
    const banner = jsonLines(run.stdout)[0]!;
    expect(banner).toMatchObject({ type: 'session', context_window: 32_000 });

    const log = await records(banner.id as string);
    expect(log.map((record) => record.type).slice(0, 3)).toEqual(['session', 'model', 'user']);
    expect(modelRecords(log)).toEqual([{ service: 'local', model: 'tiny' }]);
    const responses = log.filter((record) => record.type === 'response');
    expect(responses).toHaveLength(3);
    for (const response of responses) expect(response).toMatchObject({ model: 'tiny' });
  });

  it('continues a session with its own service and model, records a switch of model once, and keeps the history', async () => {
    await withLocalService();
    chat.enqueue({ text: 'First answer.' });
    const first = await runCli(fx, ['exec', '--json', '--service', 'local', 'Say something']);
    expect(first.code).toBe(0);
    const id = jsonLines(first.stdout)[0]!.id as string;

    // No flags: the session's own service and model, not the default service.
    chat.enqueue({ text: 'Second answer.' });
    expect((await runCli(fx, ['exec', '--json', '--session', id, 'And again'])).code).toBe(0);
    // Another model on the same service: the history goes with it.
    chat.enqueue({ text: 'Third answer.' });
    expect((await runCli(fx, ['exec', '--json', '--session', id, '--model', 'bigger', 'Once more'])).code).toBe(0);
    // And the switch holds for the next run.
    chat.enqueue({ text: 'Fourth answer.' });
    expect((await runCli(fx, ['exec', '--json', '--session', id, 'Last one'])).code).toBe(0);

    expect(fx.server.requests).toHaveLength(0);
    expect(chat.requests.map((request) => (request.body as { model: string }).model)).toEqual(['local-model', 'local-model', 'bigger', 'bigger']);
    const third = chat.requests[2]!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(third.messages)).toContain('First answer.');
    expect(JSON.stringify(third.messages)).toContain('Second answer.');
    expect(modelRecords(await records(id))).toEqual([
      { service: 'local', model: 'local-model' },
      { service: 'local', model: 'bigger' },
    ]);
  });

  it('starts a session on the configured default service with its model when no flag names one', async () => {
    await withLocalService({ service: 'local' });
    chat.enqueue({ text: 'Hello.' });
    const run = await runCli(fx, ['exec', '--json', 'Hi']);
    expect(run.code).toBe(0);
    expect(modelRecords(await records(jsonLines(run.stdout)[0]!.id as string))).toEqual([{ service: 'local', model: 'local-model' }]);
    // The default service of old is still there by name, with MINO_MODEL applied as before.
    fx.server.enqueue({ text: 'From the default service.' });
    const other = await runCli(fx, ['exec', '--json', '--service', 'default', 'Hi']);
    expect(other.code).toBe(0);
    expect(modelRecords(await records(jsonLines(other.stdout)[0]!.id as string))).toEqual([{ service: 'default', model: 'mock-model' }]);
  });

  it("sends the key the service's apiKeyEnv names, and no command Mino runs inherits that variable", async () => {
    await withLocalService();
    const keyed = { name: 'keyed', protocol: 'chat', baseUrl: chat.baseURL, model: 'm', apiKeyEnv: 'MINO_TEST_SERVICE_KEY' };
    await writePrivateFile((await ensureMinoHome(fx.home)).config, JSON.stringify({ bashSandbox: false, services: [keyed] }));
    fx.env.MINO_TEST_SERVICE_KEY = 'sk-service-secret';
    chat.enqueue({ calls: [{ name: 'bash', arguments: { command: 'echo "key=${MINO_TEST_SERVICE_KEY:-unset}"' }, call_id: 'c_env' }] }, { text: 'Done.' });
    const run = await runCli(fx, ['exec', '--json', '--approve', 'always', '--service', 'keyed', 'Show the variable']);
    expect(run.code).toBe(0);
    expect(chat.requests[0]!.headers.authorization).toBe('Bearer sk-service-secret');
    const result = jsonLines(run.stdout).find((line) => line.type === 'tool_result' && line.call_id === 'c_env');
    expect(result?.output).toContain('key=unset');
  });

  it('exits 2 naming the configured services when --service names none of them, before anything is sent or saved', async () => {
    await withLocalService();
    const run = await runCli(fx, ['exec', '--service', 'groq', 'Hi']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('There is no model service named "groq". The configured services are: default, local.');
    expect(run.stdout).toBe('');
    expect(chat.requests).toHaveLength(0);
    await expect(fs.readdir(path.join(fx.home, '.mino', 'sessions'))).resolves.toEqual([]);
  });

  it('exits 2 for a service name that breaks the naming rule, saying the rule', async () => {
    await withLocalService();
    const run = await runCli(fx, ['exec', '--service', 'My Service', 'Hi']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"My Service" is not a service name: a service name is 1 to 40 characters');
  });
});
