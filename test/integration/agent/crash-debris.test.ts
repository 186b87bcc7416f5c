// A write cut short by a crash leaves its temporary file in the project. The
// tool start names that file before it exists, and resuming the session
// removes exactly the files so named (same name, same directory, a regular
// file), telling the person which.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { isTemporaryName } from '../../../src/main/core/fs/atomicWrite';
import type { SessionRecord } from '../../../src/main/core/sessions/records';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { cliArgs } from '../../support/builtCli';

const ORIGINAL = 'const greeting = "hi"\n';

const sessionPath = (fx: AgentFixture, id: string) => path.join(fx.home, '.mino', 'sessions', `${id}.jsonl`);

async function records(fx: AgentFixture, id: string): Promise<SessionRecord[]> {
  return (await fs.readFile(sessionPath(fx, id), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionRecord);
}

/**
 * Runs a real approved edit of sub/greet.go, then puts the log and the project
 * back as a kill in the middle of the write would have left them: the log ends
 * at the tool start, the file is unchanged, and the recorded temporary file
 * holds part of the new content.
 */
async function crashedEdit(fx: AgentFixture): Promise<{ id: string; temp: string; usedNames: string[] }> {
  fx.server.enqueue(
    { calls: [{ name: 'edit_file', arguments: { path: 'sub/greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'c_edit' }] },
    { text: 'done' },
  );
  const usedNames: string[] = [];
  const watcher = watch(fx.file('sub'), (_event, name) => {
    if (name && isTemporaryName(name)) usedNames.push(name);
  });
  const conversation = await Conversation.start(fx.deps, fx.project);
  await conversation.ask('change it', { mode: 'manual', approver: recordingApprover(() => true) });
  await conversation.close();
  watcher.close();

  const all = await records(fx, conversation.id);
  const startAt = all.findIndex((r) => r.type === 'tool_start');
  const start = all[startAt];
  if (start?.type !== 'tool_start' || !start.temp_files) throw new Error('the tool start names no temporary file');
  await fs.writeFile(sessionPath(fx, conversation.id), all.slice(0, startAt + 1).map((r) => `${JSON.stringify(r)}\n`).join(''));
  await fs.writeFile(fx.file('sub/greet.go'), ORIGINAL);
  const temp = start.temp_files[0]!.path;
  await fs.writeFile(fx.file(temp), 'const greeting = "hel');
  return { id: conversation.id, temp, usedNames };
}

describe('temporary files of an interrupted write', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('are named in the tool start, under the name the write then uses', async () => {
    fx = await makeAgentFixture({ files: { 'sub/greet.go': ORIGINAL } });
    const { temp, usedNames } = await crashedEdit(fx);
    expect(temp).toMatch(/^sub\/\.greet\.go\.mino-[0-9a-f]{12}\.tmp$/);
    // The watcher saw the write create and remove exactly the recorded name.
    expect(new Set(usedNames)).toEqual(new Set([path.basename(temp)]));
  });

  it('are removed on resume, only those the log names, and the person is told which', async () => {
    fx = await makeAgentFixture({ files: { 'sub/greet.go': ORIGINAL } });
    const { id, temp } = await crashedEdit(fx);
    // A temporary-looking file no call recorded is not Mino's to remove.
    const stranger = 'sub/.greet.go.mino-aaaaaaaaaaaa.tmp';
    await fs.writeFile(fx.file(stranger), 'someone else');

    const resumed = await Conversation.resume(fx.deps, id);
    expect(resumed.unknownCalls).toEqual([expect.objectContaining({ call_id: 'c_edit', removed_temp_files: [temp] })]);
    await expect(fs.stat(fx.file(temp))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fs.readFile(fx.file(stranger), 'utf8')).toBe('someone else');
    expect(await fs.readFile(fx.file('sub/greet.go'), 'utf8')).toBe(ORIGINAL);
    const acknowledged = await resumed.acknowledge();
    expect(acknowledged[0]?.removed_temp_files).toEqual([temp]);
    await resumed.close();
  });

  it('are kept when their directory is no longer the one the write used', async () => {
    fx = await makeAgentFixture({ files: { 'sub/greet.go': ORIGINAL } });
    const { id, temp } = await crashedEdit(fx);
    // The directory was replaced by another one of the same name: the name there is not the write's.
    await fs.rename(fx.file('sub'), fx.file('sub-old'));
    await fs.mkdir(fx.file('sub'));
    await fs.writeFile(fx.file(temp), 'not from the write');
    const resumed = await Conversation.resume(fx.deps, id);
    expect(resumed.unknownCalls[0]?.removed_temp_files).toBeUndefined();
    expect(await fs.readFile(fx.file(temp), 'utf8')).toBe('not from the write');
    await resumed.close();
  });

  it(
    'mino exec says which were removed when it refuses to go on before the acknowledgment',
    async () => {
      fx = await makeAgentFixture({ files: { 'sub/greet.go': ORIGINAL } });
      const { id, temp } = await crashedEdit(fx);
      const child = spawn(process.execPath, cliArgs('exec', '--session', id, 'continue'), { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code).toBe(3);
      expect(stderr).toContain(`edit_file c_edit: Removed the unfinished temporary file this call had left in the project: ${temp}.`);
      await expect(fs.stat(fx.file(temp))).rejects.toMatchObject({ code: 'ENOENT' });
    },
    60_000,
  );
});
