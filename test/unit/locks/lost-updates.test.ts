// Two approved writes to one file must never both complete against the same
// original: the per-file lock spans recheck to rename, in one process and
// between processes.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../../src/shared/domain';
import { editFileTool } from '../../../src/main/core/tools/editFile';
import { writeFileTool } from '../../../src/main/core/tools/writeFile';
import { CHANGED_AFTER_APPROVAL } from '../../../src/main/core/tools/fileToolSupport';
import type { AnyTool } from '../../../src/main/core/tools/types';
import { leftoverTemporaryFiles, makeTempProject, outsideSentinel, SENTINEL, type TempProject } from '../fs/tempProject';
import { tsxArgs } from '../../support/tsxChild';

const WORKER = path.resolve(__dirname, '../../support/editWorker.ts');
const N = 6;
const ORIGINAL = Array.from({ length: N }, (_, i) => `line ${i}: old\n`).join('');

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
  await t.write('shared.txt', ORIGINAL);
});
afterEach(async () => {
  expect(await leftoverTemporaryFiles(t)).toEqual([]);
  expect(await outsideSentinel(t)).toBe(`${SENTINEL}\n`);
  // Released on every path: no lock file is left once the writers are done.
  const locks = await fs.readdir(path.join(t.home, '.mino', 'locks')).catch(() => []);
  expect(locks).toEqual([]);
  await t.cleanup();
});

/** Inspects every call first (each approved against the same content), then executes them all at once. */
async function raceInProcess(tool: AnyTool, calls: unknown[]): Promise<ToolResult[]> {
  const approved = [];
  for (const raw of calls) {
    const validation = tool.validate(raw);
    if (!validation.ok) throw new Error(validation.reason);
    const inspection = await tool.inspect(validation.args, t.ctx);
    if (!inspection.ok) throw new Error(inspection.result.output);
    approved.push({ args: validation.args, state: inspection.state });
  }
  return Promise.all(approved.map(({ args, state }) => tool.execute(args, state, t.ctx)));
}

function expectOneWinner(results: ToolResult[]): number {
  const winners = results.flatMap((r, i) => (r.status === 'completed' ? [i] : []));
  expect(winners).toHaveLength(1);
  for (const [i, r] of results.entries()) {
    if (i !== winners[0]) expect(r).toEqual({ status: 'failed', output: CHANGED_AFTER_APPROVAL });
  }
  return winners[0]!;
}

const editOf = (i: number) => ({ path: 'shared.txt', old_string: `line ${i}: old`, new_string: `line ${i}: new` });

describe('one file, several approved writers', () => {
  it('in one process: exactly one edit completes, the others fail with the recheck message, no edit is lost', async () => {
    const results = await raceInProcess(editFileTool, Array.from({ length: N }, (_, i) => editOf(i)));
    const winner = expectOneWinner(results);
    expect(await t.read('shared.txt')).toBe(ORIGINAL.replace(`line ${winner}: old`, `line ${winner}: new`));
  });

  it('in one process: two overwrites approved against the same content, one completes', async () => {
    const results = await raceInProcess(
      writeFileTool,
      ['first\n', 'second\n', 'third\n'].map((content) => ({ path: 'shared.txt', content, mode: 'overwrite' })),
    );
    const winner = expectOneWinner(results);
    expect(await t.read('shared.txt')).toBe(['first\n', 'second\n', 'third\n'][winner]);
  });

  it('in one process: racing creates of one name publish exactly one file', async () => {
    const results = await raceInProcess(
      writeFileTool,
      ['a\n', 'b\n', 'c\n'].map((content) => ({ path: 'new.txt', content, mode: 'create' })),
    );
    const winner = expectOneWinner(results);
    expect(await t.read('new.txt')).toBe(['a\n', 'b\n', 'c\n'][winner]);
  });

  it('in one process: writers that come one after another each see the file the previous one left', async () => {
    for (let round = 0; round < 3; round++) {
      const results = await raceInProcess(editFileTool, [editOf(round), editOf(round + 3)]);
      expectOneWinner(results);
    }
    const text = await t.read('shared.txt');
    // Three rounds, one completed edit each, every completed edit still present.
    expect(text.match(/: new/g)).toHaveLength(3);
  });

  it(
    'as separate processes: exactly one edit completes, the others fail with the recheck message',
    async () => {
      const workers = Array.from({ length: N }, (_, i) => {
        const edit = editOf(i);
        const child = spawn(process.execPath, tsxArgs(WORKER, t.project, t.home, edit.path, edit.old_string, edit.new_string), {
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        const ready = new Promise<void>((resolve, reject) => {
          const check = () => (stdout.startsWith('ready\n') ? resolve() : undefined);
          child.stdout.on('data', check);
          child.on('close', () => reject(new Error(`worker ${i} ended before it was ready: ${stderr}`)));
        });
        const done = new Promise<ToolResult>((resolve, reject) =>
          child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout.split('\n')[1]!) as ToolResult) : reject(new Error(stderr)))),
        );
        return { child, ready, done };
      });
      await Promise.all(workers.map((w) => w.ready));
      for (const w of workers) w.child.stdin.write('go\n');
      const results = await Promise.all(workers.map((w) => w.done));
      const winner = expectOneWinner(results);
      expect(await t.read('shared.txt')).toBe(ORIGINAL.replace(`line ${winner}: old`, `line ${winner}: new`));
    },
    60_000,
  );
});

describe('read-only files', () => {
  it('refuses to edit or overwrite a file its owner may not write, as invalid_arguments saying so', async () => {
    await fs.chmod(t.file('shared.txt'), 0o444);
    for (const [tool, raw] of [
      [editFileTool, editOf(0)],
      [writeFileTool, { path: 'shared.txt', content: 'replaced\n', mode: 'overwrite' }],
    ] as const) {
      const validation = tool.validate(raw);
      if (!validation.ok) throw new Error(validation.reason);
      const inspection = await (tool as AnyTool).inspect(validation.args, t.ctx);
      expect(inspection.ok).toBe(false);
      if (inspection.ok) continue;
      expect(inspection.result.status).toBe('invalid_arguments');
      expect(inspection.result.output).toMatch(/^shared\.txt is read-only \(mode 0444\)/);
    }
    expect(await t.read('shared.txt')).toBe(ORIGINAL);
    expect((await fs.stat(t.file('shared.txt'))).mode & 0o777).toBe(0o444);
  });

  it('refuses at the recheck when the file became read-only after approval', async () => {
    const validation = editFileTool.validate(editOf(0));
    if (!validation.ok) throw new Error(validation.reason);
    const inspection = await editFileTool.inspect(validation.args, t.ctx);
    if (!inspection.ok) throw new Error(inspection.result.output);
    await fs.chmod(t.file('shared.txt'), 0o400);
    const result = await editFileTool.execute(validation.args, inspection.state, t.ctx);
    expect(result.status).toBe('invalid_arguments');
    expect(result.output).toMatch(/read-only \(mode 0400\)/);
    expect(await t.read('shared.txt')).toBe(ORIGINAL);
  });
});
