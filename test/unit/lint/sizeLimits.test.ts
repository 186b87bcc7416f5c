// The size limits of eslint.config.mjs: files under src/ of at most 350
// lines, functions of at most 80 (blank lines and comments not counted), a
// longer function allowed only with its reason in a disable comment; tests
// are not limited. No file of src/ is left out of them.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const SIZE_RULES = ['max-lines', 'max-lines-per-function'];

async function sizeProblems(filePath: string, code: string, eslint = new ESLint({ cwd: process.cwd() })): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message).filter((id) => SIZE_RULES.includes(id));
}

/** A function with `lines` statements, plus `padding` blank lines and comment lines. */
function longFunction(lines: number, padding = 0): string {
  const body = Array.from({ length: lines }, (_, i) => `  total += ${i};`);
  const pad = Array.from({ length: padding }, (_, i) => (i % 2 === 0 ? '' : '  // a note'));
  return ['export function long(): number {', '  let total = 0;', ...body, ...pad, '  return total;', '}', ''].join('\n');
}

describe('the size limits', () => {
  it('refuse a file of 351 lines under src/, not under test/', async () => {
    const code = Array.from({ length: 351 }, (_, i) => `export const v${i} = ${i};`).join('\n');
    expect(await sizeProblems('src/main/core/tools/x.ts', code)).toEqual(['max-lines']);
    expect(await sizeProblems('src/main/core/tools/x.ts', code.split('\n').slice(0, 350).join('\n'))).toEqual([]);
    expect(await sizeProblems('test/unit/x.test.ts', code)).toEqual([]);
  });

  it('refuse a function of 81 lines, counting neither blank lines nor comments', async () => {
    // The opening and closing lines, `let` and `return` are 4 of the lines counted.
    expect(await sizeProblems('src/cli/x.ts', longFunction(77))).toEqual(['max-lines-per-function']);
    expect(await sizeProblems('src/cli/x.ts', longFunction(76, 40))).toEqual([]);
  });

  it('let a longer function be when the line above says why', async () => {
    const why = '// eslint-disable-next-line max-lines-per-function -- one table the reader checks row by row\n';
    expect(await sizeProblems('src/renderer/src/lib/x.ts', why + longFunction(77))).toEqual([]);
  });
});
