// What the bash sandbox costs a command: the median time of the bash tool
// running `true` in the sandbox (the one walk of the project for the
// protected files and the git guard, the mounts, the seccomp filter, the
// guard's check after the call, and the capture of what the command changed,
// saved to a real session log) next to a bare `bash -c true`, on a project of
// 10,000 and one of 100,000 files. The target: the median added time per
// sandboxed command stays under 50 ms on the 10,000-file project.
//
// Also shown: the same sandboxed `true` without the capture (what capture
// adds, as a difference of medians, and as the capture's own time measured
// where it runs, which the machine's load disturbs less), a sandboxed command that changes one file (capture's cost when there
// is something to record), the first sandboxed command in a project, which
// walks it once into the capture's baseline, and the look at every file the
// capture takes in the background after each command (on no command's path).
//
// The projects are measured once their folders are older than the guard's
// same-tick margin, as a project's folders mostly are: a folder stamped more
// recently is read again after every call (a command that changes folders
// pays for reading those again; `true` changes none).
//
// Run: npm run bench:sandbox   (Linux with bubblewrap installed)
// Optional: BENCH_DIR=/some/disk/dir to measure on a particular filesystem; BENCH_RUNS=N.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { preImageKeeper } from '../src/main/core/checkpoints/keepPreImages';
import { changeCapture } from '../src/main/core/checkpoints/commandCapture';
import { sandboxAvailability } from '../src/main/core/sandbox/availability';
import { SAME_TICK_MARGIN_NS } from '../src/main/core/sandbox/projectWalk';
import { SessionLog } from '../src/main/core/sessions/sessionLog';
import { createBashTool } from '../src/main/core/tools/bash';
import type { AnyTool, ChangeTracking, ToolContext } from '../src/main/core/tools/types';
import { median, time } from './measure';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;
const TARGET_ADDED_MS = 50;
const FILES_PER_FOLDER = 100;

interface Row {
  files: number;
  /** The first sandboxed command with capture: it walks the project into the baseline. */
  firstMs: number;
  bare: number;
  sandboxed: number;
  captured: number;
  capturedChange: number;
  /** The longest background look at every file after a command (not part of any command's time). */
  auditMs: number;
  /** The capture's own time in a `true` run (median), timed in place. */
  ownMs: number;
}

async function main(): Promise<void> {
  const sandbox = await sandboxAvailability();
  if (!sandbox.available) {
    console.error(`No sandbox on this machine: ${sandbox.reason}`);
    process.exitCode = 1;
    return;
  }
  const base = await fs.realpath(await fs.mkdtemp(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'mino-bench-sandbox-')));
  try {
    const rows: Row[] = [];
    for (const files of [10_000, 100_000]) {
      const project = path.join(base, `project-${files}`);
      const home = path.join(base, `home-${files}`);
      await fs.mkdir(home, { recursive: true });
      await makeProject(project, files);
      await new Promise((resolve) => setTimeout(resolve, Number(SAME_TICK_MARGIN_NS / 1_000_000n) + 100));
      rows.push({ files, ...(await compare(project, home)) });
    }
    print(rows, sandbox.program, sandbox.version);
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

/** A tree like a real project's: folders of 100 files, a `.git`, a nested repository, an ignored build folder and a few secret files. */
async function makeProject(project: string, files: number): Promise<void> {
  await fs.mkdir(path.join(project, '.git', 'hooks'), { recursive: true });
  await fs.writeFile(path.join(project, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  await fs.writeFile(path.join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await fs.mkdir(path.join(project, 'vendor', 'lib', '.git'), { recursive: true });
  await fs.writeFile(path.join(project, 'vendor', 'lib', '.git', 'config'), '[core]\n');
  await fs.writeFile(path.join(project, '.env'), 'TOKEN=secret\n');
  await fs.writeFile(path.join(project, '.gitignore'), 'dist/\n');
  await fs.mkdir(path.join(project, 'dist'));
  await fs.writeFile(path.join(project, 'dist', 'app.js'), 'built();\n');
  for (let folder = 0; folder * FILES_PER_FOLDER < files; folder++) {
    const dir = path.join(project, 'src', `part${Math.floor(folder / 50)}`, `module${folder}`);
    await fs.mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: Math.min(FILES_PER_FOLDER, files - folder * FILES_PER_FOLDER) }, (_, i) =>
        fs.writeFile(path.join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`),
      ),
    );
  }
}

/**
 * Median ms of each way of running a command, taken in turn (after `WARMUP`
 * runs of each) so drift in the machine's load affects them alike.
 */
async function compare(project: string, home: string): Promise<Omit<Row, 'files'>> {
  const capture = changeCapture();
  const log = await SessionLog.create(home, project);
  const keeper = preImageKeeper({ homeDir: home, projectDir: project, log, capBytes: async () => 500 * 1024 * 1024 });
  let call = 0;
  // The capture's own time in each `true` run, timed where it runs (before the command, after it, and its record):
  // a figure the machine's load disturbs far less than a difference between two medians.
  const own: number[] = [];
  let ownNow = 0;
  const timed = async <T>(step: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await step();
    } finally {
      ownNow += performance.now() - start;
    }
  };
  const timedCapture: ChangeTracking = {
    begin: async (dir) => {
      const watch = await timed(() => capture.begin(dir));
      return { finish: () => timed(() => watch.finish()), abandon: () => watch.abandon() };
    },
  };
  const withCapture = (): ToolContext => {
    const keep = keeper(`call-${(call += 1)}`);
    const record = keep.recordCommand!;
    keep.recordCommand = (captured) => timed(() => record(captured));
    return { projectDir: project, homeDir: home, keepPreImage: keep };
  };
  const plain = createBashTool();
  const capturing = createBashTool({ changes: timedCapture });
  const changed = path.join('src', 'part0', 'module0', 'file0.ts');
  const ways: Array<() => Promise<void>> = [
    () => runBare(project),
    () => runTool(plain, 'true', { projectDir: project, homeDir: home }),
    async () => {
      ownNow = 0;
      await runTool(capturing, 'true', withCapture());
      own.push(ownNow);
    },
    () => runTool(capturing, `echo "// $RANDOM" >> ${changed}`, withCapture()),
  ];
  try {
    const firstMs = await time(ways[2]!);
    // After each command the capture looks at every file by stat, in the background (changeWatch.ts, startAudit); it
    // yields to the next command. Waited for between the timed runs, so it lands on none of them, and timed on its own.
    const audits: number[] = [];
    for (let i = 0; i < WARMUP; i++) for (const way of ways) await way().then(() => capture.audited());
    const times: number[][] = ways.map(() => []);
    for (let i = 0; i < RUNS; i++) {
      for (const [index, way] of ways.entries()) {
        times[index]!.push(await time(way));
        audits.push(await time(() => capture.audited()));
      }
    }
    const [bare, sandboxed, captured, capturedChange] = times.map(median) as [number, number, number, number];
    return { firstMs, bare, sandboxed, captured, capturedChange, auditMs: Math.max(...audits), ownMs: median(own.slice(-RUNS)) };
  } finally {
    capture.close();
    await log.close();
  }
}

async function runTool(bash: AnyTool, command: string, ctx: ToolContext): Promise<void> {
  const validation = bash.validate({ command });
  if (!validation.ok) throw new Error(validation.reason);
  const inspection = await bash.inspect(validation.args, ctx);
  if (!inspection.ok) throw new Error(inspection.result.output);
  const result = await bash.execute(validation.args, inspection.state, ctx);
  if (result.status !== 'completed') throw new Error(result.output);
  if (ctx.keepPreImage && result.output.includes('not captured')) throw new Error(`the capture failed: ${result.output}`);
}

function runBare(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'true'], { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bash -c true exited with ${code}`))));
  });
}

function print(rows: Row[], program: string, version: string): void {
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(`Sandboxed commands against bare \`bash -c true\` (medians of ${RUNS}; ${os.cpus().length} CPUs, load ${load}, Node ${process.version}, ${version} at ${program})`);
  const head = ['project', 'bare', 'sandbox', 'sandbox+capture', 'capture adds', 'capture itself', 'one file changed', 'first command', 'background audit (max)'];
  console.log(head.map((h, i) => (i === 0 ? h.padEnd(14) : h.padStart(h.length + 2))).join(''));
  for (const row of rows) {
    const cells = [row.bare, row.sandboxed, row.captured, row.captured - row.sandboxed, row.ownMs, row.capturedChange, row.firstMs, row.auditMs];
    console.log(`${`${row.files.toLocaleString('en-US')} files`.padEnd(14)}${cells.map((ms, i) => `${ms.toFixed(1)} ms`.padStart(head[i + 1]!.length + 2)).join('')}`);
  }
  for (const row of rows) {
    const added = row.captured - row.bare;
    const verdict = row.files === 10_000 ? `target < ${TARGET_ADDED_MS} ms: ${added < TARGET_ADDED_MS ? 'ok' : 'OVER'}` : '(no target)';
    console.log(`${row.files.toLocaleString('en-US')} files: median added time per sandboxed command (with capture) ${added.toFixed(1)} ms; ${verdict}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
