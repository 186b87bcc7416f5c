// Outside the sandbox (the model asked, or the person turned it off) a
// command still ends with the call: a trusted bwrap gives it its own process
// namespace, whose end takes every process along, even one that dropped
// Mino's mark and left its group and session by a double fork. Real bwrap,
// real processes; where this machine has no trusted bwrap the confirmation
// says processes may outlive the command.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandSandbox } from '../../../src/main/core/agent/defaultDeps';
import { DEFAULT_SETTINGS } from '../../../src/main/core/config/settings';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { OUTLIVE_WARNING, processesField } from '../../../src/main/core/sandbox/outside';
import { createBashTool, type BashToolOptions } from '../../../src/main/core/tools/bash';
import { HAS_PROC } from '../../../src/main/core/tools/processTree';
import { makeTempHome, type TempHome } from '../../support/tempHome';

const availability = await sandboxAvailability();
const hasNamespace = availability.available && availability.kind === 'bwrap';
if (!hasNamespace) console.warn(`Process-namespace tests skipped: ${availability.available ? 'this machine sandboxes without bwrap' : availability.reason}`);

let temp: TempHome;
let marker: string;
afterEach(async () => {
  // Whatever a failing run left behind does not outlive the test.
  for (const pid of await processesCarrying(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  await temp?.cleanup();
});

/** Pids of live processes whose command line holds `text` (a zombie's is empty). */
async function processesCarrying(text: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await fs.readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) pids.push(Number(name));
  }
  return pids;
}

/** Polls until no process carries `text`; the deadline is generous, for a loaded machine. */
async function gone(text: string): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while ((await processesCarrying(text)).length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

async function run(command: string, options: BashToolOptions, args: { sandbox?: boolean } = {}) {
  const tool = createBashTool(options);
  const validation = tool.validate({ command, ...args });
  if (!validation.ok) throw new Error(validation.reason);
  const ctx = { projectDir: temp.project, homeDir: temp.home };
  const inspection = await tool.inspect(validation.args, ctx);
  if (!inspection.ok) throw new Error('inspection failed');
  const result = await tool.execute(validation.args, inspection.state, ctx);
  return { confirmation: inspection.confirmation, result };
}

/** Drops Mino's mark, then double-forks a new session whose sleep carries `marker` in its argv, and returns at once. */
const escaping = (marker: string) => `env -u MINO_COMMAND_ID bash -c '( setsid bash -c "exec -a ${marker} sleep 120" & ) &'; echo started`;

const TURNED_OFF: BashToolOptions = { sandbox: () => commandSandbox(async () => ({ ...DEFAULT_SETTINGS, bashSandbox: false })) };

describe.skipIf(!hasNamespace || !HAS_PROC)('a command run outside the sandbox', () => {
  it.each([
    ['the model asked to leave the sandbox', {}, { sandbox: false }],
    ['the sandbox is turned off in Settings', TURNED_OFF, {}],
  ] as const)('ends with the call, double fork and all, when %s', async (_why, options, args) => {
    temp = await makeTempHome({ prefix: 'outside' });
    marker = `mino-outlive-${randomUUID()}`;
    const { confirmation, result } = await run(escaping(marker), options, args);
    expect(result.output).toContain('started');
    expect(confirmation.fields).toContainEqual(processesField(true, process.getuid?.()));
    expect(confirmation.warning).not.toContain(OUTLIVE_WARNING);
    expect(await gone(marker)).toBe(true);
  });

  it('still has the full rights it was approved with: it writes outside the project and sees the whole file system', async () => {
    temp = await makeTempHome({ prefix: 'outside' });
    marker = `mino-unused-${randomUUID()}`;
    const { result } = await run('echo x > ../outside.txt && cat /etc/hostname >/dev/null && echo wrote', {}, { sandbox: false });
    expect(result).toMatchObject({ status: 'completed' });
    expect(await fs.readFile(path.join(temp.root, 'outside.txt'), 'utf8')).toBe('x\n');
  });
});

describe('where this machine cannot give a command its own process namespace', () => {
  it('says in the confirmation that processes may outlive the command', async () => {
    temp = await makeTempHome({ prefix: 'outside' });
    marker = `mino-unused-${randomUUID()}`;
    const none = async () => ({ available: false as const, reason: 'no bwrap here' });
    const tool = createBashTool({ sandbox: none, processNamespace: none });
    const validation = tool.validate({ command: 'true' });
    if (!validation.ok) throw new Error(validation.reason);
    const inspection = await tool.inspect(validation.args, { projectDir: temp.project, homeDir: temp.home });
    if (!inspection.ok) throw new Error('inspection failed');
    expect(inspection.confirmation.warning).toBe(`Runs with your account permissions; this is not a sandbox. ${OUTLIVE_WARNING}`);
    expect(inspection.confirmation.fields).toContainEqual({ label: 'Processes', value: 'may outlive it: this machine cannot give it its own process namespace' });
  });

  it('names the side effect a person who is not root meets in the namespace', () => {
    expect(processesField(true, 1000).value).toContain('sudo and other setuid programs cannot gain rights in it');
    expect(processesField(true, 0).value).not.toContain('sudo');
  });
});
