// One session, one writer: a second opener (in this process, or a CLI in
// another) is refused and told who holds the session; reading stays possible;
// a holder that died leaves nothing in the way.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { SessionLockedError } from '../../../src/main/core/locks/sessionLock';
import { listSessions } from '../../../src/main/core/sessions/list';
import { loadSession } from '../../../src/main/core/sessions/load';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';
import { tsxArgs } from '../../support/tsxChild';



describe('the session lock', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('refuses a second writer of an open session, naming the holder, and lets it in once the first closes', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'one' }, { text: 'two' });
    const first = await Conversation.start({ ...fx.deps, owner: 'desktop window' }, fx.project);
    await first.ask('hello', { mode: 'manual', approver: recordingApprover() });

    const second = Conversation.resume({ ...fx.deps, owner: 'CLI' }, first.id);
    await expect(second).rejects.toBeInstanceOf(SessionLockedError);
    await expect(second).rejects.toThrow(new RegExp(`open for writing elsewhere \\(desktop window, process ${process.pid}, since `));

    // Reading is not writing: the session is still listed and loads in full.
    expect((await listSessions(fx.home, fx.project)).map((s) => s.id)).toEqual([first.id]);
    const loaded = await loadSession(fx.home, first.id, new ToolRegistry(BUILTIN_TOOLS).validateCall);
    expect(loaded.records.map((r) => r.type)).toEqual(['session', 'model', 'user', 'response', 'turn_end']);

    await first.close();
    const again = await Conversation.resume({ ...fx.deps, owner: 'CLI' }, first.id);
    await again.ask('again', { mode: 'manual', approver: recordingApprover() });
    await again.close();
    expect(await fs.readdir(path.join(fx.home, '.mino', 'locks'))).toEqual([]);
  });

  it(
    'a CLI run on a session open in the desktop exits 2 with a message naming the desktop window and its process id',
    async () => {
      fx = await makeAgentFixture();
      const desktop = await Conversation.start({ ...fx.deps, owner: 'desktop window' }, fx.project);
      const log = path.join(fx.home, '.mino', 'sessions', `${desktop.id}.jsonl`);
      const before = await fs.readFile(log);
      const run = await runCli(fx, ['exec', '--session', desktop.id, 'hello']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`Session ${desktop.id} is open for writing elsewhere \\(desktop window, process ${process.pid}`));
      // Nothing was appended by the refused writer.
      expect(await fs.readFile(log)).toEqual(before);
      await desktop.close();
    },
    60_000,
  );

  it(
    'a session whose writer was killed can be continued: the dead holder is recognised',
    async () => {
      fx = await makeAgentFixture();
      const conversation = await Conversation.start(fx.deps, fx.project);
      const id = conversation.id;
      await conversation.close();
      // A separate process takes the lock and is killed before it can release it.
      const holder = spawn(
        process.execPath,
        tsxArgs(
          path.resolve(__dirname, '../../support/sessionLockHolder.ts'),
          fx.home,
          id,
        ),
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      await expect(Conversation.resume(fx.deps, id)).rejects.toThrow(/open for writing elsewhere \(CLI, process/);
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.on('close', resolve));

      fx.server.enqueue({ text: 'continued' });
      const resumed = await Conversation.resume(fx.deps, id);
      const outcome = await resumed.ask('go on', { mode: 'manual', approver: recordingApprover() });
      expect(outcome.status).toBe('completed');
      await resumed.close();
    },
    60_000,
  );
});
