// `mino exec` and `mino compact` and the context window, as a real child process.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { MODE_WARNINGS } from '../../../src/main/core/policy/modes';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { cliArgs } from '../../support/builtCli';

let fx: AgentFixture;
afterEach(async () => {
  await fx?.cleanup();
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, cliArgs(...args), { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const jsonLines = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
const BIG = 'lorem ipsum dolor sit amet, BIGFILE-MARKER\n'.repeat(600);

async function configure(settings: Record<string, unknown>) {
  await writePrivateFile((await ensureMinoHome(fx.home)).config, JSON.stringify(settings));
}

// Each run starts a TypeScript child process, several per test: allow for a busy machine.
describe('mino and the context window', { timeout: 120_000 }, () => {
  it('prints the banner with a configured window, and the warning of a looser --mode on stderr', async () => {
    fx = await makeAgentFixture();
    await configure({ contextWindow: 32_000 });
    fx.server.enqueue({ text: 'Hi.' });
    const run = await runCli(['exec', '--mode', 'bypass', 'hello']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Context window: 32000 tokens\.\nSession: [0-9a-f]{32}\nPermission mode: bypass\. Use --mode to change it\.\n/);
    expect(run.stderr).toContain(MODE_WARNINGS.bypass);
    expect(run.stdout).not.toContain(MODE_WARNINGS.bypass);
  });

  it('reports a compaction and the turn usage and context in --json, and compacts on request with mino compact', async () => {
    fx = await makeAgentFixture({ files: { 'big.txt': BIG } });
    await configure({ contextWindow: 20_000 });
    fx.server.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
      { text: 'Read it.', usage: { input_tokens: 16_980, output_tokens: 20, cached_tokens: 4_000 } },
    );
    const first = await runCli(['exec', '--json', 'Read big.txt']);
    expect(first.code).toBe(0);
    const firstLines = jsonLines(first.stdout);
    const id = String(firstLines[0]!.id);
    expect(firstLines.at(-1)).toMatchObject({
      type: 'turn_end',
      status: 'completed',
      usage: { input_tokens: 16_990, cached_input_tokens: 4_000, output_tokens: 25, reasoning_tokens: 0 },
      context: { used: expect.any(Number), window: 20_000 },
    });

    fx.server.enqueue({ text: 'Summary: big.txt was read.' }, { text: 'Next step.' });
    const second = await runCli(['exec', '--json', '--session', id, 'What next?']);
    expect(second.code).toBe(0);
    const compaction = jsonLines(second.stdout).find((line) => line.type === 'compaction');
    expect(compaction).toMatchObject({ type: 'compaction', trigger: 'auto', author: 'model', summary: 'Summary: big.txt was read.' });
    expect(compaction!.tokens_before as number).toBeGreaterThanOrEqual(16_000);
    expect(compaction!.tokens_after as number).toBeLessThan(compaction!.tokens_before as number);

    // Another long turn that stays under the threshold, then a compaction the person asks for.
    fx.server.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
      { text: 'Read it again.', usage: { input_tokens: 12_000, output_tokens: 20 } },
      { text: 'Summary again.' },
    );
    expect((await runCli(['exec', '--json', '--session', id, 'Read big.txt again'])).code).toBe(0);
    const manual = await runCli(['compact', '--session', id, '--json']);
    expect(manual.code).toBe(0);
    expect(jsonLines(manual.stdout)).toEqual([expect.objectContaining({ type: 'compaction', trigger: 'manual', summary: 'Summary again.' })]);
    expect(fx.server.requests.at(-1)!.body.tools).toBeUndefined();
  });

  it('mino compact says why when there is nothing to compact, and needs --session', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'Hi.' });
    const run = await runCli(['exec', '--json', 'hello']);
    const id = String(jsonLines(run.stdout)[0]!.id);
    const nothing = await runCli(['compact', '--session', id]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/mino: There is nothing to compact yet/);
    const usage = await runCli(['compact']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/mino compact needs --session ID/);
  });
});
