import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Lints text as if it lived at a given path, with the project's real config.
async function lint(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import directions', () => {
  it.each([
    'src/main/core/tools/x.ts',
    'src/main/service/x.ts',
    'src/cli/x.ts',
    'src/renderer/src/x.tsx',
  ])('refuses electron in %s', async (file) => {
    const messages = await lint(file, "import { app } from 'electron';\nexport const a = app;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports: .*electron/);
  });

  it('allows electron in the Electron adapter and the preload', async () => {
    for (const file of ['src/main/electron/x.ts', 'src/main/index.ts', 'src/preload/index.ts']) {
      expect(await lint(file, "import { app } from 'electron';\nexport const a = app;\n")).toEqual([]);
    }
  });

  it('keeps core free of the service layer', async () => {
    const messages = await lint('src/main/core/agent/x.ts', "import { a } from '../../service/minoService';\nexport const b = a;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports/);
  });

  it('lets shared import only zod', async () => {
    expect(await lint('src/shared/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n")).toEqual([]);
    const messages = await lint('src/shared/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports/);
  });

  it('keeps main and Node out of the renderer', async () => {
    const fromMain = await lint('src/renderer/src/x.tsx', "import { a } from '../../main/core/fs/paths';\nexport const b = a;\n");
    expect(fromMain.join('\n')).toMatch(/no-restricted-imports/);
    const fromNode = await lint('src/renderer/src/x.tsx', "import { readFile } from 'node:fs';\nexport const r = readFile;\n");
    expect(fromNode.join('\n')).toMatch(/no-restricted-imports/);
  });
});
