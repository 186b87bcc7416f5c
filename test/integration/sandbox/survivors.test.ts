// Without the sandbox, a command that outlives a crash of Mino (here: a
// killed mino exec) is found again when the session is resumed, ended, and
// reported, so it cannot go on writing after the person has acknowledged.
// Where a trusted bwrap gives the command its own process namespace, nothing
// outlives the crash at all: the namespace ends with Mino.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { HAS_PROC, markedProcesses } from '../../../src/main/core/tools/processTree';
import { survivorsText } from '../../../src/shared/resumeNotices';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { cliArgs } from '../../support/builtCli';

const machine = await sandboxAvailability();
const hasNamespace = machine.available && machine.kind === 'bwrap';

let fx: AgentFixture;
afterEach(async () => fx?.cleanup());

function cli(args: string[]) {
  const child = spawn(process.execPath, cliArgs(...args), { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A writer that leaves the command's group and session, as a daemon would; the command notes the mark its processes carry. */
const WRITER = "echo \"$MINO_COMMAND_ID\" > mark; setsid sh -c 'while :; do echo . >> beat; sleep 0.05; done' & sleep 60";

/** Starts the writer through mino exec with the sandbox off, kills Mino once it writes, and returns the session and the mark. */
async function crashWhileWriting(): Promise<{ sessionId: string; mark: string }> {
  fx = await makeAgentFixture();
  await writePrivateFile((await ensureMinoHome(fx.home)).config, '{ "bashSandbox": false }\n');
  fx.server.enqueue({ calls: [{ name: 'bash', arguments: { command: WRITER }, call_id: 'c_bash' }] });
  const first = cli(['exec', '--json', '--mode', 'bypass', 'run it']);
  await waitFor(async () => (await size(fx.file('beat'))) > 0, 'the command to start writing');
  first.child.kill('SIGKILL');
  const killed = await first.done;
  const sessionId = String((JSON.parse(killed.stdout.split('\n')[0]!) as { id: string }).id);
  return { sessionId, mark: (await fs.readFile(fx.file('mark'), 'utf8')).trim() };
}

describe.skipIf(!HAS_PROC || !hasNamespace)('a command outside the sandbox, in its own process namespace, when Mino is killed', () => {
  it('ends with Mino, and the resumed session says it was no longer running', async () => {
    const { sessionId, mark } = await crashWhileWriting();
    await waitFor(async () => markedProcesses(mark).length === 0, 'the command to end with Mino');
    const resumed = await cli(['exec', '--session', sessionId, 'continue']).done;
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toContain(survivorsText({ state: 'not_running', ended: 0 }));
  });
});

describe.skipIf(!HAS_PROC)('a command that outlived a crash, without the sandbox', () => {
  it('is ended when the session is resumed, and the person is told it was still running', async () => {
    const { sessionId, mark } = await crashWhileWriting();
    if (hasNamespace) {
      // Here the command ended with Mino (see above); a survivor like one on a machine without a
      // namespace (macOS, no bwrap) stands in for it: a process carrying the command's mark.
      await waitFor(async () => markedProcesses(mark).length === 0, 'the command to end with Mino');
      spawn('sh', ['-c', 'while :; do echo . >> beat; sleep 0.05; done'], { cwd: fx.project, env: { ...process.env, MINO_COMMAND_ID: mark }, detached: true, stdio: 'ignore' }).unref();
      await waitFor(async () => markedProcesses(mark).length > 0, 'the stand-in survivor to start');
    }

    // Mino is gone; the command is not.
    const before = await size(fx.file('beat'));
    await waitFor(async () => (await size(fx.file('beat'))) > before, 'the survivor to go on writing');

    const resumed = await cli(['exec', '--session', sessionId, 'continue']).done;
    expect(resumed.code).toBe(3);
    // bash, the detached loop and whatever sleep each is in: the count varies, the message does not.
    expect(resumed.stderr).toMatch(/mino: bash c_bash: This command was still running when the session was resumed; Mino ended its \d+ remaining process(es)?\./);
    expect(markedProcesses(mark)).toEqual([]);

    // Resumed again: nothing is left, and it says so.
    const again = await cli(['exec', '--session', sessionId, 'continue']).done;
    expect(again.stderr).toContain(survivorsText({ state: 'not_running', ended: 0 }));
  });
});
