// npm run bench:resume — figures, printed, never asserted: resuming sessions of
// 10,000, 30,000 and 100,000 records that were never compacted, and their
// first turn, which must compact the whole history before it can ask the
// model anything (the summarizer's input is cut down to fit the window).
//
// The logs are written in a temp HOME; each size is then resumed in a child
// process of its own, so its peak resident memory (the kernel's maxRSS) is
// that resume's alone, not the leftovers of the one before or of writing the
// logs.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Conversation } from '../src/main/core/agent/conversation';
import { sessionDeps } from '../src/main/core/agent/defaultDeps';
import { DEFAULT_SETTINGS } from '../src/main/core/config/settings';
import { SessionLog } from '../src/main/core/sessions/sessionLog';
import { startMockResponsesServer } from '../test/support/mockResponsesServer';
import { tsxArgs } from '../test/support/tsxChild';

// BENCH_RESUME_SIZES=10000,30000 runs only those sizes.
const SIZES = process.env.BENCH_RESUME_SIZES ? process.env.BENCH_RESUME_SIZES.split(',').map(Number) : [10_000, 30_000, 100_000];
const MiB = 1024 * 1024;

interface ChildFigures {
  historyItems: number;
  /** Conversation.resume: read, parse, rebuild the history. */
  openMs: number;
  /** The first question after it: the compaction (summarizer input, request, record) and the answer. */
  firstTurnMs: number;
  /** CPU time (user + system) of each, the figure least changed by other load on the machine. */
  openCpuMs: number;
  firstTurnCpuMs: number;
  compacted: boolean;
  rssBeforeMiB: number;
  /** Peak resident memory of the whole child process. */
  maxRssMiB: number;
  heapAfterMiB: number;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') {
    await child(process.argv[3]!, process.argv[4]!, process.argv[5]!);
    return;
  }
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-bench-resume-')));
  try {
    console.log('Resuming a session with no compaction, then its first turn (which compacts it)');
    console.log(`(Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
    for (const size of SIZES) {
      const home = path.join(root, `home-${size}`);
      const project = path.join(root, `project-${size}`);
      await fs.mkdir(home);
      await fs.mkdir(project);
      await fs.writeFile(path.join(project, 'a.txt'), 'hello\n');
      const { id, bytes, records } = await writeLog(home, project, size);
      const figures = await runChild(home, project, id);
      console.log(
        `   ${records} records (${(bytes / MiB).toFixed(1)} MiB, ${figures.historyItems} history items): ` +
          `resume ${seconds(figures.openMs)}, first turn ${seconds(figures.firstTurnMs)}${figures.compacted ? ' (compacted)' : ' (NOT compacted)'}, ` +
          `total ${seconds(figures.openMs + figures.firstTurnMs)} (CPU ${seconds(figures.openCpuMs)} + ${seconds(figures.firstTurnCpuMs)}); peak RSS ${figures.maxRssMiB.toFixed(0)} MiB ` +
          `(+${(figures.maxRssMiB - figures.rssBeforeMiB).toFixed(0)} MiB over the ${figures.rssBeforeMiB.toFixed(0)} MiB before resuming)`,
      );
      await fs.rm(home, { recursive: true, force: true });
    }
    console.log('   target: 100,000 records resumed and compacted in under 2 s and 150 MB');
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/**
 * A session of `count` records in turns as the loop writes them (a question,
 * three read_file calls with their starts and results, an answer, the turn's
 * end), with no usage reported, so the budget counts the history itself.
 * Written as the log's own lines in one go: that many fsync'd appends would
 * take minutes and measure nothing here.
 */
async function writeLog(home: string, project: string, count: number): Promise<{ id: string; bytes: number; records: number }> {
  const log = await SessionLog.create(home, project);
  await log.close();
  const at = new Date().toISOString();
  const output = 'hello\n'.repeat(20);
  const lines: string[] = [];
  const add = (record: Record<string, unknown>) => lines.push(JSON.stringify({ ...record, at }));
  for (let n = 0; lines.length + 1 < count; n += 1) {
    add({ type: 'user', text: `question ${n}: what does a.txt say now?` });
    for (let i = 0; i < 3; i += 1) {
      const id = `call_${n}_${i}`;
      add({ type: 'response', responseId: `resp_${n}_${i}`, output: [{ type: 'function_call', call_id: id, name: 'read_file', arguments: '{"path":"a.txt"}' }] });
      add({ type: 'tool_start', call_id: id, name: 'read_file', arguments: '{"path":"a.txt"}' });
      add({ type: 'tool_result', call_id: id, name: 'read_file', status: 'completed', output });
    }
    add({ type: 'response', responseId: `resp_${n}`, output: [{ type: 'message', role: 'assistant', text: `It says hello, ${n}.` }] });
    add({ type: 'turn_end', status: 'completed' });
  }
  // Whole turns: the count is reached or passed by less than one turn.
  await fs.appendFile(log.file, `${lines.join('\n')}\n`);
  // The header is a record too.
  return { id: log.id, bytes: (await fs.stat(log.file)).size, records: lines.length + 1 };
}

function runChild(home: string, project: string, id: string): Promise<ChildFigures> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, tsxArgs(__filename, '--child', home, project, id), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`the resume child exited with ${code}: ${out}`));
      else resolve(JSON.parse(line) as ChildFigures);
    });
  });
}

async function child(home: string, project: string, id: string): Promise<void> {
  const server = await startMockResponsesServer();
  const env = { ...process.env, HOME: home, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'bench', MINO_MODEL: 'mock' };
  const { deps, close } = sessionDeps({ homeDir: home, env, settings: async () => DEFAULT_SETTINGS });
  // The summarizer's request has no tools; the turn's own request has them.
  server.enqueue(
    (body: { tools?: unknown[] }) => (body.tools === undefined ? { text: 'Summary: the person asked about a.txt many times; it says hello.' } : { text: 'done' }),
    (body: { tools?: unknown[] }) => (body.tools === undefined ? { text: 'Summary again.' } : { text: 'done' }),
  );
  try {
    const rssBefore = process.memoryUsage().rss;
    let start = performance.now();
    let cpu = process.cpuUsage();
    const conversation = await Conversation.resume(deps, id);
    const openMs = performance.now() - start;
    const openCpuMs = cpuMs(process.cpuUsage(cpu));
    const historyItems = conversation.historyItems.length;
    let compacted = false;
    start = performance.now();
    cpu = process.cpuUsage();
    const outcome = await conversation.ask('And now?', {
      mode: 'manual',
      approver: { approve: async () => false },
      onEvent: (event) => {
        if (event.type === 'compaction') compacted = true;
      },
    });
    const firstTurnMs = performance.now() - start;
    const firstTurnCpuMs = cpuMs(process.cpuUsage(cpu));
    if (outcome.status !== 'completed') throw new Error(`the first turn did not complete: ${JSON.stringify(outcome)}`);
    await conversation.close();
    const figures: ChildFigures = {
      historyItems,
      openMs,
      firstTurnMs,
      openCpuMs,
      firstTurnCpuMs,
      compacted,
      rssBeforeMiB: rssBefore / MiB,
      // maxRSS is in kibibytes.
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      heapAfterMiB: process.memoryUsage().heapUsed / MiB,
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await close();
    await server.close();
  }
}

const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

void main();
