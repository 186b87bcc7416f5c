// "Always allow" from an ask, in core: which asks offer a rule (and exactly
// which rule), and what the ledger keeps when the person saved one. Also the
// ledger entry for an unknown result the person acknowledged.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { readLedger } from '../../../src/main/core/rules/ledger';
import { changeRulesFile, withRule } from '../../../src/main/core/rules/rulesFile';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import type { SessionRecord } from '../../../src/main/core/sessions/records';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { runCallAsLoop } from '../../support/runCall';

const sandboxed = (await sandboxAvailability()).available;
const bash = (command: string) => ({ name: 'bash', arguments: { command } });

describe('the rule an ask offers to always allow', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('offers the command word and its subcommand for one plain command, for where it runs', async () => {
    fx = await makeAgentFixture();
    const run = await runCallAsLoop(fx, bash('npm test -- --watch=false'), { mode: 'manual' });
    expect(run.asks).toHaveLength(1);
    expect(run.asks[0].alwaysAllow).toBe(sandboxed ? 'allow bash npm test' : 'allow bash-outside npm test');
  });

  it.each(['echo hi && rm -rf x', 'echo $(whoami)', 'FOO=1 make', '$CMD build'])('offers no rule for %j, which one prefix rule cannot describe', async (command) => {
    fx = await makeAgentFixture();
    const run = await runCallAsLoop(fx, bash(command), { mode: 'manual' });
    expect(run.asks).toHaveLength(1);
    expect(run.asks[0].alwaysAllow).toBeUndefined();
  });

  it('offers no rule for a call the person\'s own ask rule made ask, nor for a file write', async () => {
    fx = await makeAgentFixture();
    await changeRulesFile(fx.home, (file) => withRule(file, { project: fx!.project }, 'ask bash git', '2026-01-01T00:00:00.000Z'));
    const asked = await runCallAsLoop(fx, bash('git status'), { mode: 'bypass' });
    expect(asked.asks).toHaveLength(1);
    expect(asked.asks[0].alwaysAllow).toBeUndefined();
    const write = await runCallAsLoop(fx, { name: 'write_file', arguments: { path: 'a.txt', content: 'a', mode: 'create' } }, { mode: 'manual' });
    expect(write.asks).toHaveLength(1);
    expect(write.asks[0].alwaysAllow).toBeUndefined();
  });

  it('keeps in the ledger that the person approved and saved a rule', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ calls: [{ ...bash('echo hi'), call_id: 'c1' }] }, { text: 'Done.' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    try {
      await conversation.ask('Run it.', {
        mode: 'manual',
        approver: { approve: async () => ({ approved: true, savedRule: { id: 'r4', text: 'allow bash echo' } }) },
      });
    } finally {
      await conversation.close();
    }
    const { entries } = await readLedger(fx.home, fx.project);
    expect(entries.at(-1)).toMatchObject({ call_id: 'c1', decision: 'allow', answer: true, by: { kind: 'person', approved: true, savedRule: { id: 'r4', text: 'allow bash echo' } } });
  });
});

describe('the ledger of an acknowledged unknown result', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('records each call the person acknowledged, with its target, as unknown and acknowledged', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'made.txt', content: 'x', mode: 'create' }, call_id: 'c_w' }] }, { text: 'Done.' });
    const first = await Conversation.start(fx.deps, fx.project);
    await first.ask('Write it.', { mode: 'manual', approver: recordingApprover(() => true) });
    await first.close();
    // The log as a crash during the write leaves it: it ends at the tool start.
    const logFile = path.join(fx.home, '.mino', 'sessions', `${first.id}.jsonl`);
    const records = (await fs.readFile(logFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as SessionRecord);
    const startAt = records.findIndex((record) => record.type === 'tool_start');
    await fs.writeFile(logFile, records.slice(0, startAt + 1).map((record) => `${JSON.stringify(record)}\n`).join(''));

    const resumed = await Conversation.resume(fx.deps, first.id);
    try {
      expect(resumed.unknownCalls).toHaveLength(1);
      await resumed.acknowledge();
    } finally {
      await resumed.close();
    }
    const { entries } = await readLedger(fx.home, fx.project);
    expect(entries.at(-1)).toMatchObject({ session: first.id, call_id: 'c_w', tool: 'write_file', target: 'made.txt', decision: 'unknown', by: { kind: 'acknowledged' } });
  });
});
