// What the file tools' safety costs: the median time of read_file and of an
// approved edit_file (inspect + execute) next to the bare minimum of the same
// work done directly with fs, for a small file and a 60 KiB file.
//
// Run: npx tsx bench/tools.bench.ts   (or npm run bench:tools)
// Optional: BENCH_DIR=/some/disk/dir to measure on a particular filesystem.
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { editFileTool } from '../src/main/core/tools/editFile';
import { readFileTool } from '../src/main/core/tools/readFile';
import type { AnyTool, ToolContext } from '../src/main/core/tools/types';
import { compareMedians } from './measure';

const READ_RUNS = 400;
const EDIT_RUNS = 80;
const WARMUP = 20;

interface Row {
  name: string;
  tool: number;
  bare: number;
  target: number;
}

async function main(): Promise<void> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'mino-bench-')));
  const project = path.join(base, 'project');
  const home = path.join(base, 'home');
  await fs.mkdir(project);
  await fs.mkdir(home);
  const ctx: ToolContext = { projectDir: project, homeDir: home };
  try {
    const small = 'package main\n\nconst greeting = "hi"\n';
    const line = 'const filler = "0123456789012345678901234567890123456789012345678901234";\n'; // 75 bytes
    const large = `${line.repeat(Math.floor((60 * 1024) / line.length) - 1)}const greeting = "hi"\n`;
    const rows: Row[] = [];
    for (const [label, content] of [['small', small], ['60 KiB', large]] as const) {
      const file = path.join(project, `${label === 'small' ? 'small' : 'large'}.go`);
      await fs.writeFile(file, content);
      const rel = path.basename(file);
      rows.push({
        name: `read_file, ${label} (${Buffer.byteLength(content)} B)`,
        ...(await compare(READ_RUNS, () => runTool(readFileTool, { path: rel }, ctx), () => fs.readFile(file, 'utf8'))),
        target: 2,
      });
      let toggle = false;
      let bareToggle = false;
      rows.push({
        name: `edit_file, ${label} (inspect + execute)`,
        ...(await compare(
          EDIT_RUNS,
          () => {
            toggle = !toggle;
            const [from, to] = toggle ? ['"hi"', '"hello"'] : ['"hello"', '"hi"'];
            return runTool(editFileTool, { path: rel, old_string: from, new_string: to }, ctx);
          },
          () => {
            bareToggle = !bareToggle;
            return bareEdit(file, bareToggle ? '"hi"' : '"hello"', bareToggle ? '"hello"' : '"hi"');
          },
        )),
        target: 1.3,
      });
    }
    print(rows, base);
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

/** Median ms of the tool and of the bare work, alternated (see compareMedians). */
async function compare(runs: number, tool: () => Promise<unknown>, bare: () => Promise<unknown>): Promise<{ tool: number; bare: number }> {
  const medians = await compareMedians(runs, WARMUP, tool, bare);
  return { tool: medians.measured, bare: medians.bare };
}

async function runTool(tool: AnyTool, raw: unknown, ctx: ToolContext): Promise<void> {
  const validation = tool.validate(raw);
  if (!validation.ok) throw new Error(validation.reason);
  const inspection = await tool.inspect(validation.args, ctx);
  if (!inspection.ok) throw new Error(inspection.result.output);
  const result = await tool.execute(validation.args, inspection.state, ctx);
  if (result.status !== 'completed') throw new Error(result.output);
}

/** The least an atomic edit can do: read, temp file, write, fsync, rename, fsync the directory. */
async function bareEdit(file: string, from: string, to: string): Promise<void> {
  const text = await fs.readFile(file, 'utf8');
  const temp = `${file}.bench.tmp`;
  const handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
  await handle.writeFile(text.replace(from, to));
  await handle.sync();
  await handle.close();
  await fs.rename(temp, file);
  const dir = await fs.open(path.dirname(file), constants.O_RDONLY);
  await dir.sync();
  await dir.close();
}

function print(rows: Row[], base: string): void {
  console.log(`File tools against bare fs (medians; ${os.cpus().length} CPUs, Node ${process.version}, files in ${path.dirname(base)})`);
  console.log(`${'case'.padEnd(40)} ${'tool ms'.padStart(9)} ${'bare ms'.padStart(9)} ${'ratio'.padStart(7)}  target`);
  for (const row of rows) {
    const ratio = row.tool / row.bare;
    const verdict = ratio <= row.target ? 'ok' : 'OVER';
    console.log(
      `${row.name.padEnd(40)} ${row.tool.toFixed(3).padStart(9)} ${row.bare.toFixed(3).padStart(9)} ${`${ratio.toFixed(2)}x`.padStart(7)}  <= ${row.target}x ${verdict}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
