// Without the sandbox, a command that outlives a crash of Mino (here: a
// killed mino exec) is found again when the session is resumed, ended, and
// reported, so it cannot go on writing after the person has acknowledged.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { HAS_PROC } from '../../../src/main/core/tools/processTree';
import { survivorsText } from '../../../src/shared/sessions';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { tsxArgs } from '../../support/tsxChild';

const CLI = path.resolve(__dirname, '../../../src/cli/mino.ts');

let fx: AgentFixture;
afterEach(async () => fx?.cleanup());

function cli(args: string[]) {
  const child = spawn(process.execPath, tsxArgs(CLI, ...args), { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

async function size(file: string): Promise<number> {
  return (await fs.stat(file).catch(() => ({ size: 0 }))).size;
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!HAS_PROC)('a command that outlived a crash, without the sandbox', () => {
  it('is ended when the session is resumed, and the person is told it was still running', async () => {
    fx = await makeAgentFixture();
    await writePrivateFile((await ensureMinoHome(fx.home)).config, '{ "bashSandbox": false }\n');
    // A writer that leaves the command's group and session, as a daemon would.
    fx.server.enqueue({
      calls: [{ name: 'bash', arguments: { command: "setsid sh -c 'while :; do echo . >> beat; sleep 0.05; done' & sleep 60" }, call_id: 'c_bash' }],
    });
    const first = cli(['exec', '--json', '--mode', 'bypass', 'run it']);
    await waitFor(async () => (await size(fx.file('beat'))) > 0, 'the command to start writing');
    first.child.kill('SIGKILL');
    const killed = await first.done;
    const sessionId = String((JSON.parse(killed.stdout.split('\n')[0]!) as { id: string }).id);

    // Mino is gone; the command is not.
    const before = await size(fx.file('beat'));
    await new Promise((r) => setTimeout(r, 300));
    expect(await size(fx.file('beat'))).toBeGreaterThan(before);

    const resumed = await cli(['exec', '--session', sessionId, 'continue']).done;
    expect(resumed.code).toBe(3);
    // bash, the detached loop and whatever sleep each is in: the count varies, the message does not.
    expect(resumed.stderr).toMatch(/mino: bash c_bash: This command was still running when the session was resumed; Mino ended its \d+ remaining processes\./);
    const after = await size(fx.file('beat'));
    await new Promise((r) => setTimeout(r, 400));
    expect(await size(fx.file('beat'))).toBe(after);

    // Resumed again: nothing is left, and it says so.
    const again = await cli(['exec', '--session', sessionId, 'continue']).done;
    expect(again.stderr).toContain(survivorsText({ state: 'not_running', ended: 0 }));
  });
});
