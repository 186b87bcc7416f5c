// `mino exec` started with OPENAI_API_KEY set: the key must be found in no
// process's /proc/<pid>/environ, Mino's own included, neither by a command
// Mino runs outside the sandbox nor by any other process of the user (this
// test), while the model service still receives it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { buildCli, type BuiltCli } from '../../support/builtCli';

/** A command listing the /proc/<pid>/environ files it can see that hold `text`, on one line after `label:`. */
const environsHolding = (label: string, text: string) => `echo "${label}: $(grep -laF -e '${text}' /proc/[0-9]*/environ 2>/dev/null | tr '\\n' ' ')"`;

/** The start-up environment block of process `pid`, as any process of the same user can read it. */
const environOf = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, 'latin1');

describe.runIf(process.platform === 'linux')('the API key and the environment of every process', () => {
  // The built command, as it ships: run through tsx, the loader's own helper (esbuild) would start with the key
  // before Mino's code ran, and the scan would rightly find it there.
  let cli: BuiltCli;
  beforeAll(async () => {
    cli = await buildCli();
  }, 120_000);
  afterAll(async () => cli?.remove());

  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('is found in no /proc/<pid>/environ, by a command run outside the sandbox or by this test, yet the model service receives it', async () => {
    const key = `sk-environ-${randomUUID()}`;
    // Set beside the key: where a scan finds it, that scan could have found the key.
    const canary = `canary-${randomUUID()}`;
    fx = await makeAgentFixture();
    await writePrivateFile((await ensureMinoHome(fx.home)).config, '{ "bashSandbox": false }\n');
    const command = `${environsHolding('key', key)}; ${environsHolding('canary', canary)}`;
    let minoPid = 0;
    let minoEnviron = '';
    fx.server.enqueue(
      // Outside the sandbox twice over: the setting is off, and the call asks for it (approved by --approve always).
      { calls: [{ name: 'bash', arguments: { command, sandbox: false }, call_id: 'scan' }] },
      // Read while Mino waits for this answer, after it ran the command.
      () => {
        minoEnviron = environOf(minoPid);
        return { text: 'Scanned.' };
      },
    );

    const mino = spawn(process.execPath, [cli.entry, 'exec', '--json', '--approve', 'always', 'Scan the environments'], {
      cwd: fx.project,
      env: { ...fx.env, OPENAI_API_KEY: key, MINO_TEST_CANARY: canary },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    minoPid = mino.pid!;
    let stderr = '';
    mino.stderr.on('data', (chunk) => (stderr += chunk));
    mino.stdout.resume();
    const code = await new Promise<number | null>((resolve) => mino.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);

    expect(minoEnviron).toContain(`MINO_TEST_CANARY=${canary}`);
    expect(minoEnviron).not.toContain(key);
    const scan = (fx.server.requests[1]?.body as { input: Array<{ type: string; call_id?: string; output?: string }> }).input.find(
      (item) => item.type === 'function_call_output' && item.call_id === 'scan',
    );
    const { status, output } = JSON.parse(scan!.output!) as { status: string; output: string };
    expect(status).toBe('completed');
    // The command's scan worked (its own shell holds the canary) and found the key nowhere it could see.
    expect(output).toMatch(/^canary: \/proc\//m);
    expect(output).toMatch(/^key: *$/m);
    expect(fx.server.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
  });
});
