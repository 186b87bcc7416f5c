import * as fs from 'node:fs/promises';
import { builtinModules } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
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

describe('core layers', () => {
  const layers = async (): Promise<string[]> => ((await import(pathToFileURL(path.resolve('eslint.config.mjs')).href)) as { CORE_LAYERS: string[] }).CORE_LAYERS;

  it('refuses core/fs importing core/agent', async () => {
    const messages = await lint('src/main/core/fs/x.ts', "import { Conversation } from '../agent/conversation';\nexport const c = Conversation;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports: .*core\/fs may not import .*core\/agent/);
  });

  it('lets each layer import every lower layer and refuses every higher one', async () => {
    const order = await layers();
    for (const [index, layer] of order.entries()) {
      const others = order.filter((other) => other !== layer);
      const code = others.map((other, i) => `import { a${i} } from '../${other}/x';`).join('\n') + `\nexport const all = [${others.map((_, i) => `a${i}`).join(', ')}];\n`;
      const refused = (await lint(`src/main/core/${layer}/y.ts`, code)).map((message) => /'\.\.\/(\w+)\/x' import is restricted/.exec(message)?.[1]);
      expect(refused, layer).toEqual(order.slice(index + 1));
    }
  });

  it('stops linting while a folder of src/main/core has no place in the order', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-lint-'));
    try {
      await fs.copyFile('eslint.config.mjs', path.join(root, 'eslint.config.mjs'));
      await fs.symlink(path.resolve('node_modules'), path.join(root, 'node_modules'));
      for (const folder of ['fs', 'widgets']) await fs.mkdir(path.join(root, 'src/main/core', folder), { recursive: true });
      await expect(import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href)).rejects.toThrow(/src\/main\/core\/widgets has no place in CORE_LAYERS/);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

describe('service, CLI and renderer', () => {
  it('keeps the CLI out of the service, while the CLI may use the service', async () => {
    const messages = await lint('src/main/service/x.ts', "import { runExec } from '../../cli/exec';\nexport const r = runExec;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports: .*The service never imports the CLI/);
    expect(await lint('src/cli/x.ts', "import { MinoService } from '../main/service/minoService';\nexport const m = MinoService;\n")).toEqual([]);
  });

  it('refuses every module Node ships in the renderer, bare or with node:, and nothing that merely shares a name', async () => {
    const names = builtinModules.filter((name) => !name.startsWith('_'));
    const code = names.flatMap((name) => [`import '${name}';`, `import 'node:${name}';`]).join('\n') + '\n';
    const messages = await lint('src/renderer/src/x.tsx', code);
    expect(messages).toHaveLength(2 * names.length);
    expect(messages.every((message) => message.includes('The renderer is sandboxed: no Node modules'))).toBe(true);
    expect(await lint('src/renderer/src/y.tsx', "import type { Decision } from '../../shared/domain';\nimport { useState } from 'react';\nexport type D = Decision;\nexport const u = useState;\n")).toEqual([]);
  });
});

describe('one session host', () => {
  const opening = "import { Conversation } from './conversation';\nexport const open = (d: never) => Conversation.resume(d, 'x' as never);\n";

  it('refuses starting or resuming a Conversation outside the session host', async () => {
    for (const file of ['src/main/service/features/x.ts', 'src/cli/x.ts', 'src/main/core/agent/x.ts']) {
      expect((await lint(file, opening)).join('\n')).toMatch(/no-restricted-syntax: Open sessions through openSession/);
    }
  });

  it('allows it in the session host', async () => {
    expect((await lint('src/main/core/agent/sessionHost.ts', opening)).filter((m) => m.startsWith('no-restricted-syntax'))).toEqual([]);
  });
});

