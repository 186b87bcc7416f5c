// A fork made by the session host (as the desktop's Edit and resend makes it)
// is an ordinary saved session: `mino exec --session` continues it, the model
// gets the history before the forked message, and the kept contents its
// inherited changes name are its own.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/main/core/agent/sessionHost';
import { checkpointsDir } from '../../../src/main/core/checkpoints/preImageStore';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';

describe('a forked session', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('continues with mino exec --session from the history before the forked message', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': 'const greeting = "hi"\n' } });
    const options = { homeDir: fx.home, env: fx.env, owner: 'CLI', settings: async () => fx.settings };
    const source = await openSession(options, { start: fx.project });
    fx.server.enqueue({ calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'e1' }] }, { text: 'Greeted.' });
    await source.conversation.ask('Change the greeting.', { mode: 'accept-edits', approver: recordingApprover() });
    fx.server.enqueue({ text: 'Loud now.' });
    await source.conversation.ask('Make it loud.', { mode: 'manual', approver: recordingApprover() });
    const sourceId = source.conversation.id;
    await source.close();
    const before = await fs.readFile(sessionFile(fx.home, sourceId));

    const fork = await openSession(options, { fork: { from: sourceId, message: 1 } });
    const forkId = fork.conversation.id;
    expect(fork.conversation.historyItems.filter((item) => item.type === 'message').map((item) => item.type === 'message' && item.text)).toEqual([
      'Change the greeting.',
      'Greeted.',
    ]);
    await fork.close();
    // The kept contents of the inherited change are the fork's own too: the original's may be dropped on its own.
    const kept = await fs.readdir(path.join(checkpointsDir(fx.home), sourceId));
    expect((await fs.readdir(path.join(checkpointsDir(fx.home), forkId))).sort()).toEqual(kept.sort());

    fx.server.enqueue({ text: 'Quiet now.' });
    const run = await runCli(fx, ['exec', '--session', forkId, 'Make it quiet.']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const sent = JSON.stringify(fx.server.requests.at(-1)!.body.input);
    expect(sent).toContain('Change the greeting.');
    expect(sent).toContain('Make it quiet.');
    expect(sent).not.toContain('Make it loud.');
    expect((await fs.readFile(sessionFile(fx.home, sourceId))).equals(before)).toBe(true);
  });

  it('refuses to fork from a message the session does not have, and leaves no session behind', async () => {
    fx = await makeAgentFixture();
    const options = { homeDir: fx.home, env: fx.env, owner: 'CLI', settings: async () => fx.settings };
    const source = await openSession(options, { start: fx.project });
    fx.server.enqueue({ text: 'Hi.' });
    await source.conversation.ask('Hello.', { mode: 'manual', approver: recordingApprover() });
    await source.close();
    await expect(openSession(options, { fork: { from: source.conversation.id, message: 1 } })).rejects.toThrow(
      'This session shows 1 message of yours, so there is no message 2 to continue from.',
    );
    expect((await fs.readdir(path.dirname(sessionFile(fx.home, source.conversation.id)))).filter((name) => name.endsWith('.jsonl'))).toHaveLength(1);
  });
});
