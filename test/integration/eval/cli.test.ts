// `mino eval` as a person runs it: a child process of the command (through tsx), then the command as it ships
// (built into a folder with no node_modules above it), against the scripted model only. No network.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type BuiltCli } from '../../support/builtCli';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { cliArgs } from '../../support/builtCli';

const SUITE_CASES = ['injected-notes', 'injected-notes-mcp', 'greet-edit', 'linked-git', 'switch-to-bypass'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` in `temp`; the runs an evaluation keeps without --out go to its temp folder, inside `temp` too. */
function run(temp: TempHome, command: string[]): Promise<Run> {
  const env = { ...process.env, HOME: temp.home, TMPDIR: temp.root, TEMP: temp.root, TMP: temp.root };
  const child = spawn(process.execPath, command, { cwd: temp.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const mino = (temp: TempHome, ...args: string[]) => run(temp, cliArgs(...args));
const jsonLines = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

const BROKEN = `cases:
  - name: no-edit
    project: { files: { greet.go: "const greeting = \\"hi\\"\\n" } }
    prompt: Change the greeting to "hello".
    script:
      - calls: [{ name: edit_file, arguments: { path: greet.go, old_string: '"hi"', new_string: '"hello"' } }]
      - text: Done.
    expect: { file_contains: { greet.go: '"hello"' } }
`;

describe('mino eval', () => {
  let temp: TempHome;
  afterEach(async () => temp?.cleanup());

  it('runs the safety suite, prints where each session log is, and exits 0; --rescore says the same from the saved runs', async () => {
    temp = await makeTempHome({ prefix: 'eval-cli' });
    const out = path.join(temp.root, 'runs');
    const first = await mino(temp, 'eval', '--suite', 'safety', '--out', out);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const lines = first.stdout.split('\n');
    expect(lines[0]).toBe(`Runs are saved in ${out}`);
    for (const name of SUITE_CASES) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${name} run 1: passed; session log ${out}/${name}/run-1/home/\\.mino/sessions/[0-9a-f]{32}\\.jsonl$`)));
      expect(lines).toContain(`${name}: 1/1 runs passed`);
    }
    expect(lines.at(-2)).toBe('5 passed, 0 failed');

    const requests = await fs.readFile(path.join(out, 'greet-edit', 'run-1', 'requests.jsonl'), 'utf8');
    const again = await mino(temp, 'eval', '--rescore', out, '--json');
    expect(again.code).toBe(0);
    const summary = jsonLines(again.stdout).at(-1);
    expect(summary).toMatchObject({ type: 'summary', dir: out, passed: 5, failed: 0 });
    // Nothing was asked of any model: the relay's record is as the run left it.
    expect(await fs.readFile(path.join(out, 'greet-edit', 'run-1', 'requests.jsonl'), 'utf8')).toBe(requests);
  });

  it('exits 1 naming the failed check, and 2 for a case file with a mistake, naming the case and the field', async () => {
    temp = await makeTempHome({ prefix: 'eval-cli' });
    await temp.write('broken.yaml', BROKEN);
    const failed = await mino(temp, 'eval', 'project/broken.yaml', '--json');
    expect(failed.code).toBe(1);
    const [runLine, summary] = jsonLines(failed.stdout);
    expect(runLine).toMatchObject({ type: 'run', case: 'no-edit', run: 1, passed: false });
    expect((runLine.checks as Array<{ check: string; passed: boolean }>).filter((c) => !c.passed).map((c) => c.check)).toEqual(['file_contains']);
    expect(summary).toMatchObject({ type: 'summary', passed: 0, failed: 1 });

    await temp.write('bad.yaml', BROKEN.replace('file_contains', 'file_contain'));
    const bad = await mino(temp, 'eval', 'project/bad.yaml');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`mino: The case file ${temp.file('bad.yaml')} cannot be used:\n  case "no-edit" (cases[0]): "expect": unknown field "file_contain"\n  case "no-edit" (cases[0]): "expect": must hold at least one check\n`);

    const unknown = await mino(temp, 'eval', '--suite', 'nosuch');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('mino: There is no built-in suite named "nosuch"; the suites are: safety.\n');
  });
});

describe('mino eval, built', () => {
  let cli: BuiltCli;
  let temp: TempHome;
  beforeAll(async () => {
    cli = await buildCli();
  }, 120_000);
  afterAll(async () => cli?.remove());
  afterEach(async () => temp?.cleanup());

  it('carries the safety suite beside the command; the MCP case says its dev dependency is missing there', async () => {
    temp = await makeTempHome({ prefix: 'eval-built' });
    const cases = SUITE_CASES.filter((name) => name !== 'injected-notes-mcp').flatMap((name) => ['--case', name]);
    const result = await run(temp, [cli.entry, 'eval', '--suite', 'safety', ...cases]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('4 passed, 0 failed');

    const mcp = await run(temp, [cli.entry, 'eval', '--suite', 'safety', '--case', 'injected-notes-mcp']);
    expect(mcp.code).toBe(1);
    expect(mcp.stdout).toMatch(/run failed on run 1: This case starts the MCP server of package @modelcontextprotocol\/server-everything, which is not installed here/);
  });
});
