// Every `mino` command holds a session as the CLI: a second opener is told
// "CLI" whichever command has it, and a command refused because another
// holder has the session exits 2 naming that holder, as `mino exec` does.
// The commands run in this process, so the second opener can try while the
// command still holds the session (when it writes its output).
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { parseChangesArgs, runChanges } from '../../../src/cli/changes';
import { SessionLockedError } from '../../../src/main/core/locks/sessionLock';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

/** A session whose one turn edited greet.go. */
async function sessionWithAnEdit(fx: AgentFixture): Promise<string> {
  fx.server.enqueue(
    { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'e' }] },
    { text: 'Done.' },
  );
  const conversation = await Conversation.start(fx.deps, fx.project);
  await conversation.ask('Greet with hello', { mode: 'bypass', approver: recordingApprover() });
  await conversation.close();
  return conversation.id;
}

function io(fx: AgentFixture, onStdout: () => void = () => undefined) {
  let stderr = '';
  return {
    io: { stdout: { write: () => onStdout() }, stderr: { write: (text: string) => void (stderr += text) }, env: fx.env },
    stderr: () => stderr,
  };
}

describe('the CLI as a session holder', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('while mino changes, undo or redo holds a session, another opener is refused and told the CLI has it', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': 'const greeting = "hi"\n' } });
    const id = await sessionWithAnEdit(fx);
    for (const command of ['changes', 'undo', 'redo'] as const) {
      // The lock is taken before resume awaits anything, so each attempt is decided while the command holds the session.
      const attempts: Array<Promise<unknown>> = [];
      const secondOpener = () => Conversation.resume({ ...fx!.deps, owner: 'desktop window' }, id).then((opened) => opened.close(), (error: unknown) => error);
      const run = io(fx, () => attempts.push(secondOpener()));
      expect(await runChanges(parseChangesArgs(command, ['--session', id]), run.io), `${command}: ${run.stderr()}`).toBe(0);
      expect(attempts.length, command).toBeGreaterThan(0);
      for (const refusal of await Promise.all(attempts)) {
        expect(refusal, command).toBeInstanceOf(SessionLockedError);
        expect((refusal as Error).message, command).toMatch(new RegExp(`open for writing elsewhere \\(CLI, process ${process.pid}, since `));
      }
    }
  }, 60_000);

  it('mino undo on a session open elsewhere exits 2 naming the holder, and changes nothing', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': 'const greeting = "hi"\n' } });
    const id = await sessionWithAnEdit(fx);
    const desktop = await Conversation.resume({ ...fx.deps, owner: 'desktop window' }, id);
    try {
      const run = io(fx);
      expect(await runChanges(parseChangesArgs('undo', ['--session', id]), run.io)).toBe(2);
      expect(run.stderr()).toMatch(new RegExp(`^mino: Session ${id} is open for writing elsewhere \\(desktop window, process ${process.pid}`));
    } finally {
      await desktop.close();
    }
    expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toBe('const greeting = "hello"\n');
  }, 60_000);
});
