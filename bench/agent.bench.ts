// npm run bench:agent — figures for the agent loop, printed, never asserted:
// 1. the loop's own cost per tool round trip, against the bare request time
//    of the same loopback mock;
// 2. loading saved sessions of 1,000 and 10,000 records (time, peak heap);
// 3. per streamed text delta, the time from the SDK event to our event.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Conversation } from '../src/main/core/agent/conversation';
import { BUILTIN_TOOLS, sessionDeps } from '../src/main/core/agent/defaultDeps';
import { ToolRegistry } from '../src/main/core/agent/toolRegistry';
import { DEFAULT_SETTINGS } from '../src/main/core/config/settings';
import { createModelClient } from '../src/main/core/model/client';
import { loadSession } from '../src/main/core/sessions/load';
import { SessionLog } from '../src/main/core/sessions/sessionLog';
import { startMockResponsesServer } from '../test/support/mockResponsesServer';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (value: number) => `${value.toFixed(3)} ms`;

async function main(): Promise<void> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-bench-')));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await fs.mkdir(home);
  await fs.mkdir(project);
  await fs.writeFile(path.join(project, 'a.txt'), 'hello\n');
  const server = await startMockResponsesServer();
  const env = { ...process.env, HOME: home, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'bench', MINO_MODEL: 'mock' };
  try {
    await roundTrips(server, env, home, project);
    await loading(home, project);
    await deltas(server);
  } finally {
    await server.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

async function roundTrips(server: Awaited<ReturnType<typeof startMockResponsesServer>>, env: NodeJS.ProcessEnv, home: string, project: string) {
  const { deps, close } = sessionDeps({ homeDir: home, env, settings: async () => DEFAULT_SETTINGS });
  const client = createModelClient({ baseURL: server.baseURL, apiKey: 'bench', model: 'mock', maxRetries: 0 });
  const rounds = 10;
  const samples = 15;
  const loopTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let s = 0; s < samples; s += 1) {
    // Bare: the same number of requests with the same answers, no loop, no tools, no log.
    for (let i = 0; i < rounds; i += 1) server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] });
    server.enqueue({ text: 'done' });
    let start = performance.now();
    for (let i = 0; i <= rounds; i += 1) await client.respond({ instructions: '', input: [{ type: 'message', role: 'user', text: 'go' }], tools: [] }, () => {});
    bareTimes.push((performance.now() - start) / (rounds + 1));

    for (let i = 0; i < rounds; i += 1) server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] });
    server.enqueue({ text: 'done' });
    const conversation = await Conversation.start(deps, project);
    start = performance.now();
    await conversation.ask('go', { mode: 'manual', approver: { approve: async () => false }, limits: { modelRequests: rounds + 1, toolCalls: rounds } });
    loopTimes.push((performance.now() - start) / (rounds + 1));
    await conversation.close();
  }
  await close();
  const loop = median(loopTimes);
  const bare = median(bareTimes);
  console.log('1. Tool round trip against the loopback mock (median per model request)');
  console.log(`   loop (request + save + decide + read_file + save): ${ms(loop)}`);
  console.log(`   bare request to the same mock:                     ${ms(bare)}`);
  console.log(`   loop's own overhead: ${ms(loop - bare)}  ratio loop/bare: ${(loop / bare).toFixed(2)}x`);
}

async function loading(home: string, project: string) {
  console.log('2. Loading saved sessions');
  const registry = new ToolRegistry(BUILTIN_TOOLS);
  const perRecord: number[] = [];
  for (const count of [1_000, 10_000]) {
    const log = await SessionLog.create(home, project);
    await log.append({ type: 'user', text: 'start' });
    let written = 1;
    let n = 0;
    while (written < count) {
      const id = `call_${n++}`;
      await log.append({ type: 'response', responseId: `resp_${n}`, output: [{ type: 'function_call', call_id: id, name: 'read_file', arguments: '{"path":"a.txt"}' }] });
      await log.append({ type: 'tool_start', call_id: id, name: 'read_file', arguments: '{"path":"a.txt"}' });
      await log.append({ type: 'tool_result', call_id: id, name: 'read_file', status: 'completed', output: 'hello\n'.repeat(20) });
      written += 3;
    }
    await log.close();
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 1);
    const start = performance.now();
    const loaded = await loadSession(home, log.id, registry.validateCall);
    const elapsed = performance.now() - start;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    perRecord.push(elapsed / loaded.records.length);
    console.log(`   ${loaded.records.length} records: ${ms(elapsed)}, ${(elapsed / loaded.records.length * 1000).toFixed(2)} µs/record, heap growth ≈ ${((peak - before) / 1024 / 1024).toFixed(1)} MiB`);
  }
  console.log(`   per-record cost 10,000 vs 1,000: ${(perRecord[1] / perRecord[0]).toFixed(2)}x (1.0x = linear)`);
}

async function deltas(server: Awaited<ReturnType<typeof startMockResponsesServer>>) {
  // Time inside the client between receiving a delta chunk and emitting our event
  // is measured as the whole-stream cost divided by deltas, minus the bare SSE parse.
  const client = createModelClient({ baseURL: server.baseURL, apiKey: 'bench', model: 'mock', maxRetries: 0 });
  const text = 'x'.repeat(100_000);
  server.enqueue({ text });
  let count = 0;
  let last = performance.now();
  const gaps: number[] = [];
  await client.respond({ instructions: '', input: [{ type: 'message', role: 'user', text: 'go' }], tools: [] }, () => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    count += 1;
  });
  console.log('3. Streaming text deltas');
  console.log(`   ${count} deltas for a 100 KB answer; median gap between emitted events ${ms(median(gaps))}`);
}

void main();
