// The confinement race run where /proc is hidden (started under bwrap with an
// empty /proc), so the file tools take the route of systems without one
// (macOS, Windows). Prints a JSON summary of what the tools did.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileTool } from '../../src/main/core/tools/writeFile';
import type { AnyTool } from '../../src/main/core/tools/types';

const [project, outside, home, swapper] = process.argv.slice(2) as [string, string, string, string];
const ctx = { projectDir: project, homeDir: home };

async function approved(tool: AnyTool, raw: unknown): Promise<string> {
  const validation = tool.validate(raw);
  if (!validation.ok) return 'invalid';
  const inspection = await tool.inspect(validation.args, ctx);
  if (!inspection.ok) return inspection.result.status;
  return (await tool.execute(validation.args, inspection.state, ctx)).status;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, [swapper, path.join(project, 'sub'), outside, '200000', '4000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let running = true;
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  void ended.then(() => (running = false));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  let completed = 0;
  for (let i = 0; running && i < 600; i++) {
    for (const status of [
      await approved(writeFileTool, { path: `sub/new-${i}.txt`, content: `created ${i}\n`, mode: 'create' }),
      await approved(writeFileTool, { path: 'sub/f.txt', content: `inside ${i}\n`, mode: 'overwrite' }),
    ]) {
      if (status === 'completed') completed++;
    }
  }
  await ended;
  process.stdout.write(`${JSON.stringify({ proc: fs.existsSync('/proc/self/fd'), completed })}\n`);
}

void main();
