// The project's own rules apply where eslint.config.mjs says: the clock rule
// in the pure modules only, the catch rule in the program's code, the sync-fs
// rule in the service and the Electron adapter.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const CLOCK = 'export const at = (): number => Date.now();\n';
const SILENT = 'export function f(run: () => void): void {\n  try {\n    run();\n  } catch {\n    // Gone already.\n  }\n}\n';
const SYNC = "import { readFileSync } from 'node:fs';\nexport const text = (file: string): string => readFileSync(file, 'utf8');\n";

describe('where the project rules apply', () => {
  it.each([
    'src/shared/x.ts',
    'src/main/core/policy/x.ts',
    'src/main/core/context/x.ts',
    'src/renderer/src/features/transcript/xModel.ts',
    'src/renderer/src/features/sessions/x.ts',
    'src/renderer/src/components/x.ts',
  ])('keeps the clock out of the pure module %s', async (file) => {
    expect(await ruleIds(file, CLOCK)).toContain('mino/no-clock-in-pure-module');
  });

  it.each([
    'src/renderer/src/features/transcript/useX.ts',
    'src/renderer/src/features/transcript/X.tsx',
    'src/renderer/src/lib/x.ts',
    'src/main/service/features/x.ts',
    'src/main/core/agent/x.ts',
  ])('lets the edge %s read the clock', async (file) => {
    expect(await ruleIds(file, CLOCK)).not.toContain('mino/no-clock-in-pure-module');
  });

  it('checks catch blocks in the program and its scripts, not in tests', async () => {
    for (const file of ['src/main/core/tools/x.ts', 'src/renderer/src/app/X.tsx', 'src/cli/x.ts', 'scripts/x.mjs']) {
      expect(await ruleIds(file, SILENT), file).toContain('mino/no-silent-catch');
    }
    expect(await ruleIds('test/unit/x.test.ts', SILENT)).not.toContain('mino/no-silent-catch');
  });

  it('refuses synchronous fs calls in the service and the Electron adapter only', async () => {
    expect(await ruleIds('src/main/service/features/x.ts', SYNC)).toContain('mino/no-sync-fs');
    expect(await ruleIds('src/main/electron/x.ts', SYNC)).toContain('mino/no-sync-fs');
    expect(await ruleIds('src/main/core/config/x.ts', SYNC)).not.toContain('mino/no-sync-fs');
    expect(await ruleIds('src/cli/x.ts', SYNC)).not.toContain('mino/no-sync-fs');
  });
});
