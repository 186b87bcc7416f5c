// A search shared among workers answers what one worker alone answers: the
// same lines, cut at the same place, whatever the number of parts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAnswer } from '../../../../src/main/core/tools/search/mergeParts';
import { runRequest } from '../../../../src/main/core/tools/search/runJob';
import type { SearchJob, SearchPart } from '../../../../src/main/core/tools/search/searchJob';
import { makeTempHome, type TempHome } from '../../../support/tempHome';

let temp: TempHome;
beforeAll(async () => {
  temp = await makeTempHome({ prefix: 'merge' });
  // Files of varied sizes and hit counts, some with none, in a few folders.
  for (let i = 0; i < 40; i++) {
    const lines = Array.from({ length: 1 + ((i * 7) % 13) }, (_, n) => ((i + n) % 3 === 0 ? `hit ${i}.${n}` : `line ${i}.${n}`));
    await temp.write(`d${i % 4}/f${String(i).padStart(2, '0')}.txt`, `${lines.join('\n')}\n`);
  }
});
afterAll(async () => temp.cleanup());

function answer(job: SearchJob, count: number): string {
  const parts = Array.from({ length: count }, (_, index) => runRequest({ job, part: { index, count }, progress: new SharedArrayBuffer(4) }, () => {}));
  return searchAnswer(parts as SearchPart[], job.context, job.maxResults);
}

/** The answer without the number of files searched, which depends on how far each part got before the cut. */
const comparable = (text: string) => text.replace(/; \d+ files? searched;/, '; N files searched;');

describe('searchAnswer', () => {
  it('puts the parts together into the answer of a single worker, for any number of parts, limit and context', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 3 }), (count, maxResults, context) => {
        const job: SearchJob = { kind: 'search', projectDir: temp.project, start: '.', includeIgnored: false, glob: null, source: 'hit', flags: 'gm', literal: context % 2 === 0 ? 'hit' : null, context, maxResults };
        expect(comparable(answer(job, count))).toBe(comparable(answer(job, 1)));
      }),
      { numRuns: 60 },
    );
  });
});
