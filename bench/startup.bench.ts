// npm run bench:startup — how fast `mino exec` answers a one-turn session,
// printed, never asserted. The same scripted answer ("Hi.") comes from the
// loopback mock model service for every run, and for Codex CLI (installed from
// the npm registry into a temp folder and pointed at the same mock through a
// provider in a temp CODEX_HOME) when it can be had. Figures per run, from the
// parent's clock:
//   wall:          spawn -> the process has exited;
//   first request: spawn -> the mock received the request's headers;
//   tail:          the last byte of output -> exit (what the process does after answering);
//   CPU:           user + system time of the program and its children (Linux: this process's
//                  cutime + cstime, which grow as each finished child is reaped), the figure
//                  least changed by load from elsewhere on the machine.
// Runs alternate between the two programs, so load from elsewhere on the
// machine hits both alike; medians are printed.
import { spawn, execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { startMockResponsesServer, type MockResponsesServer } from '../test/support/mockResponsesServer';

const CODEX_VERSION = '0.171.0';
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const CLI = path.resolve(__dirname, '../out/cli/mino.js');
const PROMPT = 'Say hi';

interface Run {
  wall: number;
  firstRequest: number;
  tail: number;
  /** Undefined where /proc is not available. */
  cpu?: number;
}

/** CPU time of every reaped child so far, in ms, from /proc/self/stat (clock ticks of 10 ms). */
async function childCpuMs(): Promise<number | undefined> {
  try {
    const stat = await fs.readFile('/proc/self/stat', 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime (fields 16 and 17)
  } catch {
    return undefined;
  }
}

interface Program {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;

async function runOnce(program: Program, server: MockResponsesServer, cwd: string): Promise<Run> {
  // Every answer is the same, so left-overs from a run are harmless; keep a spare for an extra request.
  while (server.pending() < 2) server.enqueue({ text: 'Hi.' });
  const seen = server.requests.length;
  const cpuBefore = await childCpuMs();
  const start = performance.now();
  const child = spawn(program.command, program.args, { cwd, env: program.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let lastOutput = start;
  let output = '';
  const onData = (chunk: Buffer) => {
    lastOutput = performance.now();
    output += chunk.toString();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const end = performance.now();
  const cpuAfter = await childCpuMs();
  const request = server.requests.slice(seen).find((r) => r.path.startsWith('/v1/responses'));
  if (code !== 0 || !request) throw new Error(`${program.name} did not complete the turn (exit ${code}):\n${output.slice(-2000)}`);
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  return { wall: end - start, firstRequest: request.receivedAt - start, tail: end - lastOutput, ...(cpu !== undefined ? { cpu } : {}) };
}

/** Installs Codex CLI once per version into the temp folder; the reason it cannot, otherwise. */
async function installCodex(): Promise<{ bin: string } | { reason: string }> {
  const dir = path.join(os.tmpdir(), `mino-bench-codex-${CODEX_VERSION}`);
  const bin = path.join(dir, 'node_modules', '.bin', 'codex');
  try {
    await fs.access(bin);
    return { bin };
  } catch {
    // not installed yet
  }
  console.log(`Installing @openai/codex@${CODEX_VERSION} into ${dir} for the comparison...`);
  await fs.mkdir(dir, { recursive: true });
  try {
    await promisify(execFile)('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, `@openai/codex@${CODEX_VERSION}`], {
      timeout: 300_000,
    });
    await fs.access(bin);
    return { bin };
  } catch (error) {
    const text = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
    return { reason: `npm could not install @openai/codex@${CODEX_VERSION} (${text})` };
  }
}

async function codexProgram(bin: string, root: string, server: MockResponsesServer): Promise<Program> {
  const codexHome = path.join(root, 'codex-home');
  await fs.mkdir(codexHome);
  // A provider that speaks the Responses API at the mock; no retries, so a failure shows at once.
  await fs.writeFile(
    path.join(codexHome, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = "${server.baseURL}"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  return {
    name: 'Codex CLI',
    command: bin,
    args: ['exec', '--skip-git-repo-check', PROMPT],
    env: { ...process.env, CODEX_HOME: codexHome, MOCK_API_KEY: 'bench' },
  };
}

function summary(name: string, runs: Run[]): { wall: number; firstRequest: number; cpu?: number } {
  const wall = median(runs.map((r) => r.wall));
  const firstRequest = median(runs.map((r) => r.firstRequest));
  // Ticks are 10 ms, so the mean over all runs says more than any one run.
  const cpu = runs.every((r) => r.cpu !== undefined) ? runs.reduce((sum, r) => sum + r.cpu!, 0) / runs.length : undefined;
  console.log(
    `  ${name.padEnd(10)} wall ${ms(wall)}   first request ${ms(firstRequest)}   after last output ${ms(median(runs.map((r) => r.tail)))}` +
      `${cpu !== undefined ? `   CPU ${ms(cpu)} (mean)` : ''}   (wall min ${ms(Math.min(...runs.map((r) => r.wall)))}, max ${ms(Math.max(...runs.map((r) => r.wall)))})`,
  );
  return { wall, firstRequest, ...(cpu !== undefined ? { cpu } : {}) };
}

async function main(): Promise<void> {
  try {
    await fs.access(CLI);
  } catch {
    throw new Error(`${CLI} is missing: run npm run build:cli first (npm run bench:startup does).`);
  }
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-bench-startup-')));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await fs.mkdir(home);
  await fs.mkdir(project);
  const server = await startMockResponsesServer();
  try {
    const mino: Program = {
      name: 'mino exec',
      command: await supportedNode(),
      args: [CLI, 'exec', PROMPT],
      env: { ...process.env, HOME: home, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'bench', MINO_MODEL: 'mock-model' },
    };
    const programs = [mino];
    const codex = process.env.BENCH_NO_CODEX ? { reason: 'BENCH_NO_CODEX is set' } : await installCodex();
    let whyNoCodex: string | undefined;
    if ('bin' in codex) {
      const program = await codexProgram(codex.bin, root, server);
      try {
        await runOnce(program, server, project);
        programs.push(program);
      } catch (error) {
        whyNoCodex = `Codex CLI did not complete a turn against the mock: ${(error as Error).message.slice(0, 500)}`;
      }
    } else {
      whyNoCodex = codex.reason;
    }

    await runOnce(mino, server, project); // warm the file cache, as for Codex above
    const runs = new Map<Program, Run[]>(programs.map((p) => [p, []]));
    for (let i = 0; i < RUNS; i += 1) {
      for (const program of programs) runs.get(program)!.push(await runOnce(program, server, project));
    }

    console.log(`One-turn session against the loopback mock, ${RUNS} runs each (median), Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}:`);
    const own = summary('mino exec', runs.get(mino)!);
    if (programs.length > 1) {
      const other = summary('Codex CLI', runs.get(programs[1])!);
      console.log(`  ratio mino/Codex wall: ${(own.wall / other.wall).toFixed(2)}x (target at most 0.50x)`);
      if (own.cpu !== undefined && other.cpu !== undefined) console.log(`  ratio mino/Codex CPU:  ${(own.cpu / other.cpu).toFixed(2)}x`);
    } else {
      console.log(`  No comparison with Codex CLI: ${whyNoCodex}.`);
    }
    console.log(`  mino exec, process start to first request: ${ms(own.firstRequest)} (target under 250 ms)`);
    if (os.loadavg()[0] > os.cpus().length) console.log('  The machine was busy (load above its core count): wall times include waiting for a core.');
  } finally {
    await server.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

/**
 * The Node `mino` is measured on: this one when Mino supports it (22.12 or
 * newer: it keeps the code cache launch.ts relies on), else Node 22 from the
 * npm registry (scripts/withNode.mjs installs it once).
 */
async function supportedNode(): Promise<string> {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 12)) return process.execPath;
  const { nodeBinary } = (await import('../scripts/withNode.mjs')) as { nodeBinary(major: '22'): { node: string } };
  return nodeBinary('22').node;
}
