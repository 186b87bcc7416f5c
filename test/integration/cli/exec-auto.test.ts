// `mino exec --mode auto` as a person or a script runs it: a real child
// process, the real sandbox, a real temp home and project, the mock model.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_TURNED_OFF } from '../../../src/main/core/agent/defaultDeps';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { MODE_WARNINGS } from '../../../src/main/core/policy/modes';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { makeAgentFixture, outputsIn, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';



const sandboxed = (await sandboxAvailability()).available;

describe('mino exec --mode auto', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it.skipIf(!sandboxed)('runs a sandboxed command without asking, prints the allowed record and the warning, and denies one that leaves the sandbox', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: 'echo hi > a.txt' }, call_id: 'in' }] },
      { calls: [{ name: 'bash', arguments: { command: 'echo out > b.txt', sandbox: false }, call_id: 'out' }] },
      { text: 'Done.' },
    );
    const run = await runCli(fx, ['exec', '--mode', 'auto', '--approve', 'never', 'Write a.txt']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(MODE_WARNINGS.auto);
    expect(run.stdout).toContain('[Tool: bash, allowed without confirmation in auto mode]');
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('hi\n');
    expect(outputsIn(fx.server.requests[2].body)).toContainEqual(expect.objectContaining({ call_id: 'out', status: 'denied' }));
    await expect(fs.access(fx.file('b.txt'))).rejects.toThrow();
  });

  it('is refused with the reason, before anything runs, while the sandbox is turned off', async () => {
    fx = await makeAgentFixture();
    await writePrivateFile((await ensureMinoHome(fx.home)).config, '{ "bashSandbox": false }\n');
    const run = await runCli(fx, ['exec', '--mode', 'auto', 'Write a.txt']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`auto mode runs Bash commands without asking only in the sandbox, and no sandbox is available: ${SANDBOX_TURNED_OFF}.`);
    expect(run.stderr).toContain('Use --mode accept-edits or manual instead.');
    expect(fx.server.requests).toHaveLength(0);
    expect(await fs.readdir(path.join(fx.home, '.mino', 'sessions')).catch(() => [])).toEqual([]);
  });
});
