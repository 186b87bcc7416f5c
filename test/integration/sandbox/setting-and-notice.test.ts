// Turning the sandbox off is the person's choice, in ~/.mino/config.json or
// Settings; where commands are not sandboxed, Mino says so once, and why.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { notSandboxedNotice, SANDBOX_TURNED_OFF, sessionDeps } from '../../../src/main/core/agent/defaultDeps';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { readSettings } from '../../../src/main/core/config/settings';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { eventRecorder, field, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { cliArgs } from '../../support/builtCli';

const SECRET = 'SECRET-setting-off';
const AS_ROOT = process.getuid?.() === 0;
if (!AS_ROOT) console.warn('Stand-in bwrap tests skipped: only a root-owned bwrap is trusted, and these tests are not running as root');
const MACHINE = await sandboxAvailability();

let fx: AgentFixture;
afterEach(async () => fx?.cleanup());

async function turnSandboxOff(home: string): Promise<void> {
  await writePrivateFile((await ensureMinoHome(home)).config, '{ "bashSandbox": false }\n');
}

describe('"bashSandbox": false in ~/.mino/config.json', () => {
  it('runs bash with the person\'s rights, says so in the confirmation, and tells the person once per process', async () => {
    fx = await makeAgentFixture({ files: { '.env': `TOKEN=${SECRET}\n` } });
    await turnSandboxOff(fx.home);
    const { deps, close } = sessionDeps({ homeDir: fx.home, env: fx.env, settings: async () => (await readSettings(fx.home)).settings, told: new Set() });
    fx.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: 'cat .env' }, call_id: 'b1' }] },
      { text: 'done' },
      { text: 'second turn' },
    );
    const conversation = await Conversation.start(deps, fx.project);
    const first = eventRecorder();
    const second = eventRecorder();
    try {
      await conversation.ask('run it', { mode: 'bypass', approver: recordingApprover(), onEvent: first.onEvent });
      await conversation.ask('again', { mode: 'bypass', approver: recordingApprover(), onEvent: second.onEvent });
    } finally {
      await conversation.close();
      await close();
    }
    expect(first.of('notice').map((n) => n.message)).toEqual([notSandboxedNotice(SANDBOX_TURNED_OFF)]);
    expect(second.of('notice')).toEqual([]);
    const [shown] = first.of('tool_confirmation');
    expect(field(shown!.confirmation, 'Sandbox')).toBe(`not available: ${SANDBOX_TURNED_OFF}`);
    expect(shown!.confirmation.warning).toMatch(/^Runs with your account permissions; this is not a sandbox\./);
    // Without the sandbox the book's table holds as before: bypass runs it, and it reads what the person can.
    const [result] = outputsIn(fx.server.requests[1]!.body);
    expect(result!.output).toContain(SECRET);
  });

  it('is said on mino exec\'s stderr', async () => {
    fx = await makeAgentFixture();
    await turnSandboxOff(fx.home);
    fx.server.enqueue({ text: 'hello' });
    const { stderr } = await promisify(execFile)(process.execPath, cliArgs('exec', '--project', fx.project, 'hi'), { env: fx.env });
    expect(stderr.split('\n').filter((line) => line.includes('not sandboxed'))).toEqual([`Note: ${notSandboxedNotice(SANDBOX_TURNED_OFF)}`]);
  });

  it('cannot be set by the model: a bash call carrying it is refused as invalid', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'true', bashSandbox: false }, call_id: 'b1' }] }, { text: 'done' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    try {
      await conversation.ask('run it', { mode: 'bypass', approver: recordingApprover() });
    } finally {
      await conversation.close();
    }
    expect(outputsIn(fx.server.requests[1]!.body)[0]).toMatchObject({ status: 'invalid_arguments' });
  });
});

describe('where the machine has no sandbox', () => {
  it('says that Linux lacks bubblewrap and how to install it', async () => {
    const empty = await fs.mkdtemp(path.join('/tmp', 'no-bwrap-'));
    try {
      expect(await sandboxAvailability('linux', [path.join(empty, 'bwrap')])).toEqual({
        available: false,
        reason: 'bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt install bubblewrap) and restart Mino',
      });
    } finally {
      await fs.rm(empty, { recursive: true, force: true });
    }
  });

  it('says that Windows has none', async () => {
    expect(await sandboxAvailability('win32', [])).toEqual({ available: false, reason: 'there is no command sandbox Mino can use on Windows' });
  });

  // A stand-in bwrap is trusted only when root owns it (see trustedProgram.ts): these run as root, as CI does.
  it.skipIf(!AS_ROOT)('says why bubblewrap cannot make a sandbox', async () => {
    // A stand-in bwrap that fails as a kernel without unprivileged user namespaces makes it fail.
    const dir = await fs.mkdtemp(path.join('/tmp', 'fake-bwrap-'));
    try {
      await fs.writeFile(path.join(dir, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
      const noSwitch = path.join(dir, 'no-such-switch');
      const availability = await sandboxAvailability('linux', [path.join(dir, 'bwrap')], noSwitch);
      expect(availability.available).toBe(false);
      if (!availability.available) {
        expect(availability.reason).toMatch(/^bubblewrap cannot create a sandbox here \(bwrap: No permissions to create new namespace\)/);
        expect(availability.reason).toMatch(/this kernel may not allow unprivileged user namespaces$/);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!AS_ROOT)("names AppArmor's restriction and the bwrap profile that lifts it where AppArmor blocks the namespaces (Ubuntu 24.04+)", async () => {
    const dir = await fs.mkdtemp(path.join('/tmp', 'fake-bwrap-'));
    try {
      await fs.writeFile(path.join(dir, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n', { mode: 0o755 });
      const restricted = path.join(dir, 'apparmor_restrict_unprivileged_userns');
      await fs.writeFile(restricted, '1\n');
      const availability = await sandboxAvailability('linux', [path.join(dir, 'bwrap')], restricted);
      expect(availability.available).toBe(false);
      if (!availability.available) {
        expect(availability.reason).toContain('(bwrap: setting up uid map: Permission denied)');
        expect(availability.reason).toContain('kernel.apparmor_restrict_unprivileged_userns = 1');
        expect(availability.reason).toContain('npm run --silent apparmor-profile -- bwrap | sudo tee /etc/apparmor.d/mino-bwrap');
        expect(availability.reason).toContain('sudo apparmor_parser -r /etc/apparmor.d/mino-bwrap');
        expect(availability.reason).not.toContain('this kernel may not allow');
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('"sandboxReadable" in ~/.mino/config.json', () => {
  it.skipIf(!MACHINE.available)('lets a sandboxed command read the home folders it names, and no others', async () => {
    fx = await makeAgentFixture({ settings: { sandboxReadable: ['~/tools', 'not a path'] } });
    await fs.mkdir(path.join(fx.home, 'tools'));
    await fs.writeFile(path.join(fx.home, 'tools', 'tool.txt'), 'TOOL-READABLE\n');
    await fs.mkdir(path.join(fx.home, 'other'));
    await fs.writeFile(path.join(fx.home, 'other', 'notes.txt'), `${SECRET}-home\n`);
    const command = `cat '${path.join(fx.home, 'tools', 'tool.txt')}'; cat '${path.join(fx.home, 'other', 'notes.txt')}'; echo end`;
    fx.server.enqueue({ calls: [{ name: 'bash', arguments: { command }, call_id: 'b1' }] }, { text: 'done' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    try {
      await conversation.ask('run it', { mode: 'bypass', approver: recordingApprover() });
    } finally {
      await conversation.close();
    }
    const [result] = outputsIn(fx.server.requests[1]!.body);
    expect(result!.output).toContain('TOOL-READABLE');
    expect(result!.output).not.toContain(SECRET);
    expect(result!.output).toContain('end');
  });
});
