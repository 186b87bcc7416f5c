// A real project in a temp directory for the file-tool tests, with a sibling
// "outside" directory holding a sentinel no tool may ever read or change, and
// a separate HOME so the ~/.mino guard is exercised honestly.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Confirmation, ToolResult } from '../../../src/shared/domain';
import { isTemporaryName } from '../../../src/main/core/fs/atomicWrite';
import { makeTempHome } from '../../support/tempHome';
import type { AnyTool, ToolContext } from '../../../src/main/core/tools/types';

export const SENTINEL = 'SENTINEL-outside-the-project-7f3a';

export interface TempProject {
  base: string;
  project: string;
  outside: string;
  home: string;
  ctx: ToolContext;
  file(rel: string): string;
  write(rel: string, content: string | Uint8Array): Promise<string>;
  read(rel: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeTempProject(): Promise<TempProject> {
  const temp = await makeTempHome({ prefix: 'fs', withMinoDir: true });
  const { root: base, project, home, file } = temp;
  const outside = path.join(base, 'outside');
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), `${SENTINEL}\n`);
  return {
    base,
    project,
    outside,
    home,
    ctx: { projectDir: project, homeDir: home },
    file,
    write: temp.write,
    read: (rel) => fs.readFile(file(rel), 'utf8'),
    cleanup: temp.cleanup,
  };
}

export interface ToolRun {
  result: ToolResult;
  /** Set when inspection succeeded. */
  confirmation?: Confirmation;
  /** Which step produced the result. */
  step: 'validate' | 'inspect' | 'execute';
}

/** Runs a live, approved call the way the agent loop does: validate, inspect, execute. */
export async function runApproved(tool: AnyTool, raw: unknown, ctx: ToolContext): Promise<ToolRun> {
  const validation = tool.validate(raw);
  if (!validation.ok) return { result: { status: 'invalid_arguments', output: validation.reason }, step: 'validate' };
  const inspection = await tool.inspect(validation.args, ctx);
  if (!inspection.ok) return { result: inspection.result, step: 'inspect' };
  const result = await tool.execute(validation.args, inspection.state, ctx);
  return { result, confirmation: inspection.confirmation, step: 'execute' };
}

/** Every file name under `dir`, recursively, relative to it. */
export async function listTree(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true });
  return entries.map(String).sort();
}

/** Temporary files left anywhere under the test's base directory (there must be none after any outcome). */
export async function leftoverTemporaryFiles(t: TempProject): Promise<string[]> {
  return (await listTree(t.base)).filter((name) => isTemporaryName(path.basename(name)));
}

/** The sentinel outside the project, as it must stay. */
export async function outsideSentinel(t: TempProject): Promise<string> {
  return fs.readFile(path.join(t.outside, 'secret.txt'), 'utf8');
}
