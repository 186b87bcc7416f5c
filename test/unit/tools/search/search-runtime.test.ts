// How a search runs: in a worker thread that leaves main's event loop free,
// ends when the turn is stopped, and whose path passes the policy's
// protected-path check first, like read_file's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decide, factsFor } from '../../../../src/main/core/policy/decide';
import { findFilesTool } from '../../../../src/main/core/tools/findFiles';
import { searchWorkerCounts } from '../../../../src/main/core/tools/search/runSearchWorker';
import { createSearchFilesTool, searchFilesTool } from '../../../../src/main/core/tools/searchFiles';
import { PERMISSION_MODES } from '../../../../src/shared/domain';
import { makeTempProject, type TempProject } from '../../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  await t.cleanup();
});

/** Calls setImmediate again and again until `work` settles; returns how often it ran meanwhile. */
async function ticksDuring<T>(work: Promise<T>): Promise<{ ticks: number; value: T }> {
  let done = false;
  let ticks = 0;
  const spin = (): void => {
    if (done) return;
    ticks++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const value = await work.finally(() => {
    done = true;
  });
  return { ticks, value };
}

function validated(raw: Record<string, unknown>) {
  const validation = searchFilesTool.validate(raw);
  if (!validation.ok) throw new Error(validation.reason);
  return validation.args;
}

describe('a search at run time', () => {
  it('leaves main\'s event loop free while a large search and a stuck pattern run', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} with some words`).join('\n');
    await Promise.all(Array.from({ length: 2000 }, (_, i) => t.write(`d${i % 20}/f${i}.txt`, i === 1999 ? `${text}\nneedle\n` : text)));
    const large = await ticksDuring(searchFilesTool.execute(validated({ pattern: 'needle' }), null, t.ctx));
    expect(large.value.output.split('\n')[0]).toBe('d19/f1999.txt:201:needle');
    expect(large.ticks).toBeGreaterThan(0);

    // The watchdog ends the stuck worker only by reading its counter on main's timers, so this settles only if the loop runs.
    await t.write('stuck/a.txt', `${'a'.repeat(50_000)}b\n`);
    const tool = createSearchFilesTool({ watchdogTickMs: 100 });
    const stuck = await ticksDuring(tool.execute(validated({ pattern: '(a+)+$', path: 'stuck' }), null, t.ctx));
    expect(stuck.value.status).toBe('failed');
    expect(stuck.ticks).toBeGreaterThan(0);
    expect(searchWorkerCounts().busy).toBe(0);
  });

  it('ends the workers when the turn is stopped', async () => {
    await t.write('a.txt', `${'a'.repeat(50_000)}b\n`);
    const controller = new AbortController();
    // A watchdog that never fires in this test: only the stop can end the stuck worker.
    const tool = createSearchFilesTool({ watchdogTickMs: 3_600_000 });
    const running = tool.execute(validated({ pattern: '(a+)+$' }), null, { ...t.ctx, signal: controller.signal });
    await new Promise<void>((resolve) => {
      const waitForWorker = (): void => (searchWorkerCounts().busy > 0 ? resolve() : void setImmediate(waitForWorker));
      waitForWorker();
    });
    controller.abort();
    expect(await running).toEqual({ status: 'failed', output: 'The turn was stopped; the search was ended before it finished, and nothing was found.' });
    // The stopped job's workers have exited: every worker still alive is an idle one.
    const counts = searchWorkerCounts();
    expect(counts.busy).toBe(0);
    expect(counts.live).toBe(counts.idle);
  });

  it('is turned off, like every file tool, in a project that contains ~/.mino', async () => {
    await t.write('notes.txt', 'needle\n');
    for (const tool of [searchFilesTool, findFilesTool]) {
      const validation = tool.validate({ pattern: 'needle' });
      if (!validation.ok) throw new Error(validation.reason);
      const result = await tool.execute(validation.args as never, null, { projectDir: t.home, homeDir: t.home });
      expect(result.status, tool.name).toBe('error');
      expect(result.output).toMatch(/Tell the user; do not retry with file tools\.$/);
    }
  });

  it('is refused by the policy in every mode when its path is protected, and allowed otherwise, like read_file', () => {
    for (const tool of [searchFilesTool, findFilesTool]) {
      for (const mode of PERMISSION_MODES) {
        for (const path of ['.env', '.git', '.git/refs', 'home/.ssh', 'certs/server.pem', '.ENV']) {
          const validation = tool.validate({ pattern: 'x', path });
          expect(validation.ok).toBe(true);
          if (validation.ok) expect(decide(factsFor(tool, validation.args), mode).decision, `${tool.name} ${path} ${mode}`).toBe('deny');
        }
        for (const raw of [{ pattern: 'x' }, { pattern: 'x', path: 'src' }]) {
          const validation = tool.validate(raw);
          expect(validation.ok).toBe(true);
          if (validation.ok) expect(decide(factsFor(tool, validation.args), mode), `${tool.name} ${mode}`).toMatchObject({ decision: 'allow', shown: false });
        }
      }
    }
  });
});
