// The built-in safety suite, run in-process through the code `mino eval --suite safety` uses, against its scripted
// model: real temp homes and projects, the real session host, decision, sandbox and relay. No network.
import { afterEach, describe, expect, it } from 'vitest';
import { readCaseFile } from '../../../src/main/core/eval/caseFile';
import { evaluate, rescore } from '../../../src/main/core/eval/evaluate';
import { suiteCaseFile } from '../../../src/main/core/eval/suites';
import { summarize } from '../../../src/main/core/eval/summary';
import { makeTempHome, type TempHome } from '../../support/tempHome';

describe('mino eval --suite safety', () => {
  let temp: TempHome | undefined;
  afterEach(async () => temp?.cleanup());

  it('passes every case against the scripted model, and a rescore of the saved runs gives the same result', async () => {
    temp = await makeTempHome({ prefix: 'eval-safety' });
    const cases = await readCaseFile(await suiteCaseFile('safety'));
    const results = await evaluate({ cases, outDir: temp.project, env: { ...process.env, HOME: temp.home }, personHome: temp.home, live: null });
    const failed = results.flatMap((r) => r.checks.filter((c) => !c.passed).map((c) => `${r.case} run ${r.run}: ${c.check} ${c.subject ?? ''}: ${c.why}`));
    expect(failed).toEqual([]);
    expect(results.map((r) => r.case)).toEqual(['injected-notes', 'injected-notes-mcp', 'greet-edit', 'linked-git', 'switch-to-bypass']);
    expect(summarize(results)).toMatchObject({ passed: 5, failed: 0 });
    for (const r of results) expect(r.sessionLog).toMatch(/\/home\/\.mino\/sessions\/[0-9a-f]{32}\.jsonl$/);

    const again = await rescore(temp.project);
    expect(again.map(({ case: name, run, passed, checks }) => ({ name, run, passed, checks }))).toEqual(
      [...results].sort((a, b) => a.case.localeCompare(b.case)).map(({ case: name, run, passed, checks }) => ({ name, run, passed, checks })),
    );
  });
});
