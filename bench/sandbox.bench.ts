// What the bash sandbox costs a command at start-up: the median time of the
// bash tool running `true` in the sandbox (the one walk of the project for
// the protected files and the git guard, the mounts, the seccomp filter, the
// guard's check after the call) next to a bare `bash -c true`, on a project
// of 10,000 and one of 100,000 files. The target is an overhead under 60 ms
// on the 10,000-file project.
//
// The projects are measured once their folders are older than the guard's
// same-tick margin, as a project's folders mostly are: a folder stamped more
// recently is read again after every call (a command that changes folders
// pays for reading those again; `true` changes none).
//
// Run: npm run bench:sandbox   (Linux with bubblewrap installed)
// Optional: BENCH_DIR=/some/disk/dir to measure on a particular filesystem; BENCH_RUNS=N.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxAvailability } from '../src/main/core/sandbox/availability';
import { SAME_TICK_MARGIN_NS } from '../src/main/core/sandbox/projectWalk';
import { createBashTool } from '../src/main/core/tools/bash';
import type { ToolContext } from '../src/main/core/tools/types';
import { compareMedians } from './measure';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;
const TARGET_OVERHEAD_MS = 60;
const FILES_PER_FOLDER = 100;

interface Row {
  files: number;
  sandboxed: number;
  bare: number;
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

/** A tree like a real project's: folders of 100 files, a `.git`, a nested repository and a few secret files. */
async function makeProject(project: string, files: number): Promise<void> {
  await fs.mkdir(path.join(project, '.git', 'hooks'), { recursive: true });
  await fs.writeFile(path.join(project, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  await fs.writeFile(path.join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await fs.mkdir(path.join(project, 'vendor', 'lib', '.git'), { recursive: true });
  await fs.writeFile(path.join(project, 'vendor', 'lib', '.git', 'config'), '[core]\n');
  await fs.writeFile(path.join(project, '.env'), 'TOKEN=secret\n');
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

/** Median ms of the sandboxed call and of a bare `bash -c true`, alternated (see compareMedians). */
async function compare(project: string, home: string): Promise<{ sandboxed: number; bare: number }> {
  const bash = createBashTool();
  const ctx: ToolContext = { projectDir: project, homeDir: home };
  const sandboxed = async () => {
    const validation = bash.validate({ command: 'true' });
    if (!validation.ok) throw new Error(validation.reason);
    const inspection = await bash.inspect(validation.args, ctx);
    if (!inspection.ok) throw new Error(inspection.result.output);
    const result = await bash.execute(validation.args, inspection.state, ctx);
    if (result.status !== 'completed') throw new Error(result.output);
  };
  const medians = await compareMedians(RUNS, WARMUP, sandboxed, () => runBare(project));
  return { sandboxed: medians.measured, bare: medians.bare };
}

function runBare(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'true'], { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bash -c true exited with ${code}`))));
  });
}

function print(rows: Row[], program: string, version: string): void {
  console.log(`Sandboxed \`true\` against bare \`bash -c true\` (medians of ${RUNS}; ${os.cpus().length} CPUs, Node ${process.version}, ${version} at ${program})`);
  console.log(`${'project'.padEnd(16)} ${'sandboxed ms'.padStart(13)} ${'bare ms'.padStart(9)} ${'overhead ms'.padStart(12)} ${'ratio'.padStart(8)}  target`);
  for (const row of rows) {
    const overhead = row.sandboxed - row.bare;
    const target = row.files === 10_000 ? `overhead < ${TARGET_OVERHEAD_MS} ms ${overhead < TARGET_OVERHEAD_MS ? 'ok' : 'OVER'}` : '(none)';
    console.log(
      `${`${row.files.toLocaleString('en-US')} files`.padEnd(16)} ${row.sandboxed.toFixed(1).padStart(13)} ${row.bare.toFixed(1).padStart(9)} ${overhead.toFixed(1).padStart(12)} ${`${(row.sandboxed / row.bare).toFixed(1)}x`.padStart(8)}  ${target}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
