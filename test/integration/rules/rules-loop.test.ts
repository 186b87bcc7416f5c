// The person's rules through the real loop: a real temp home and project,
// rules in ~/.mino/rules.json, the real bash tool and sandbox, the mock model.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { readLedger } from '../../../src/main/core/rules/ledger';
import { changeRulesFile, rulesFilePath, withRule } from '../../../src/main/core/rules/rulesFile';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { runCallAsLoop } from '../../support/runCall';

const sandboxed = (await sandboxAvailability()).available;

async function addRule(fx: AgentFixture, text: string, scope: 'project' | 'global' = 'project') {
  return changeRulesFile(fx.home, (file) => withRule(file, scope === 'global' ? { global: true } : { project: fx.project }, text, '2026-01-01T00:00:00.000Z'));
}

const bash = (command: string) => ({ name: 'bash', arguments: { command } });

describe('rules in the loop', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it.skipIf(!sandboxed)('runs a command an allow rule covers without asking, shown with the rule, and in the ledger', async () => {
    fx = await makeAgentFixture();
    const rule = await addRule(fx, 'allow bash echo');
    const run = await runCallAsLoop(fx, bash('echo hi'), { mode: 'manual' });
    expect(run.asks).toEqual([]);
    expect(run.result).toMatchObject({ status: 'completed', output: expect.stringContaining('hi') });
    expect(run.confirmation).toMatchObject({ asked: false, confirmation: { rules: [{ id: rule.id, text: 'allow bash echo' }] } });

    const { entries } = await readLedger(fx.home, fx.project);
    expect(entries).toEqual([expect.objectContaining({ tool: 'bash', target: 'echo hi', decision: 'allow', by: { kind: 'rules', rules: [{ id: rule.id, text: 'allow bash echo' }] } })]);
  });

  it.skipIf(!sandboxed).each([
    'echo hi; touch pwned',
    'echo $(touch pwned)',
    'echo hi && touch pwned',
    'echo hi\ntouch pwned',
    'echo `touch pwned`',
  ])('asks for the compound %j that an allow rule for echo does not cover', async (command) => {
    fx = await makeAgentFixture();
    await addRule(fx, 'allow bash echo');
    const run = await runCallAsLoop(fx, bash(command), { mode: 'manual', approve: false });
    expect(run.asks).toHaveLength(1);
    expect(run.result.status).toBe('denied');
    await expect(fs.access(fx.file('pwned'))).rejects.toThrow();
    const { entries } = await readLedger(fx.home, fx.project);
    expect(entries.map((entry) => [entry.decision, entry.by.kind])).toEqual([
      ['ask', 'mode'],
      ['deny', 'person'],
    ]);
  });

  it('asks, saying why, when an allow rule for the sandbox meets a command with no sandbox; an allow bash-outside rule runs it', async () => {
    fx = await makeAgentFixture({ settings: { bashSandbox: false } });
    await addRule(fx, 'allow bash echo');
    const asked = await runCallAsLoop(fx, bash('echo hi'), { mode: 'manual', approve: false });
    expect(asked.asks).toHaveLength(1);
    expect(asked.confirmation?.confirmation.warning).toContain('Your rule r1 "allow bash echo" allows this command only in the sandbox, and no sandbox is available now');
    await addRule(fx, 'allow bash-outside echo');
    const run = await runCallAsLoop(fx, bash('echo hi'), { mode: 'manual' });
    expect(run.asks).toEqual([]);
    expect(run.result.status).toBe('completed');
    expect(run.confirmation?.confirmation.rules).toEqual([{ id: 'r2', text: 'allow bash-outside echo' }]);
  });

  it('refuses a command a deny rule covers even in bypass mode, naming the rule', async () => {
    fx = await makeAgentFixture({ files: { 'x/keep.txt': 'kept\n' } });
    const rule = await addRule(fx, 'deny bash rm', 'global');
    const run = await runCallAsLoop(fx, bash('rm -rf x'), { mode: 'bypass' });
    expect(run.result.status).toBe('denied');
    expect(run.result.output).toContain(`${rule.id} "deny bash rm"`);
    expect(await fs.readFile(fx.file('x/keep.txt'), 'utf8')).toBe('kept\n');
    const { entries } = await readLedger(fx.home, fx.project);
    expect(entries).toEqual([expect.objectContaining({ target: 'rm -rf x', decision: 'deny', by: { kind: 'rules', rules: [{ id: rule.id, text: 'deny bash rm' }] } })]);
  });

  it('refuses read_file of a path the person protected, in bypass mode', async () => {
    fx = await makeAgentFixture({ files: { 'docs/secret.md': 'secret\n', 'docs/open.md': 'open\n' } });
    const rule = await addRule(fx, 'protect docs/secret.md');
    const run = await runCallAsLoop(fx, { name: 'read_file', arguments: { path: 'docs/secret.md' } }, { mode: 'bypass' });
    expect(run.result.status).toBe('denied');
    expect(run.result.output).toMatch(/^Blocked by policy: docs\/secret.md is a protected path/);
    expect(run.result.output).not.toContain('secret\n');
    const open = await runCallAsLoop(fx, { name: 'read_file', arguments: { path: 'docs/open.md' } }, { mode: 'bypass' });
    expect(open.result.status).toBe('completed');
    const { entries } = await readLedger(fx.home, fx.project);
    expect(entries[0]).toMatchObject({ target: 'docs/secret.md', decision: 'deny', by: { kind: 'protected', rule: { id: rule.id } } });
    expect(entries[1]).toMatchObject({ target: 'docs/open.md', decision: 'allow', by: { kind: 'mode', mode: 'bypass' } });
  });

  it('keeps a path the person protected from the search tools, and from a sandboxed command, as a built-in protected one', async () => {
    fx = await makeAgentFixture({ files: { 'docs/secret.md': 'hunter2 token\n', 'private/keys.txt': 'hunter2 key\n', 'docs/open.md': 'hunter2 open\n' } });
    await addRule(fx, 'protect docs/secret.md');
    await addRule(fx, 'protect private');
    const search = await runCallAsLoop(fx, { name: 'search_files', arguments: { pattern: 'hunter2' } }, { mode: 'manual' });
    expect(search.result.status).toBe('completed');
    expect(search.result.output).toContain('docs/open.md:1:hunter2 open');
    expect(search.result.output).not.toMatch(/hunter2 (token|key)/);
    expect(search.result.output).toMatch(/2 protected/);
    const found = await runCallAsLoop(fx, { name: 'find_files', arguments: { pattern: '**/*' } }, { mode: 'manual' });
    expect(found.result.output).toContain('docs/open.md');
    expect(found.result.output).not.toMatch(/secret\.md|keys\.txt/);
    if ((await sandboxAvailability()).available) {
      const cat = await runCallAsLoop(fx, bash('cat docs/secret.md private/keys.txt docs/open.md; ls private | wc -l'), { mode: 'bypass' });
      expect(cat.result.output).not.toMatch(/hunter2 (token|key)/);
      expect(cat.result.output).toContain('hunter2 open');
    }
  });

  it('refuses a call to a tool switched off as a call to an unknown tool', async () => {
    fx = await makeAgentFixture();
    await addRule(fx, 'off bash');
    const run = await runCallAsLoop(fx, bash('echo hi'), { mode: 'bypass' });
    expect(run.result).toMatchObject({ status: 'invalid_arguments', output: expect.stringMatching(/^There is no tool named bash\. Use one of: /) });
    expect(run.result.output).not.toMatch(/Use one of: .*\bbash\b/);
    // Nor is it offered to the model: no request of the turn names it among the tools.
    const offered = fx.server.requests.map((request) => ((request.body.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name));
    expect(offered.length).toBeGreaterThan(0);
    for (const names of offered) {
      expect(names).toContain('read_file');
      expect(names).not.toContain('bash');
    }
  });

  it('applies a rule added between turns of one session at the next call', async () => {
    fx = await makeAgentFixture();
    const recorder = eventRecorder();
    const approver = recordingApprover(() => false);
    const conversation = await Conversation.start(fx.deps, fx.project);
    try {
      fx.server.enqueue({ calls: [{ ...bash('echo one'), call_id: 'c1' }] }, { text: 'Done.' });
      await conversation.ask('Run it.', { mode: 'bypass', approver, onEvent: recorder.onEvent });
      await addRule(fx, 'ask bash echo');
      fx.server.enqueue({ calls: [{ ...bash('echo two'), call_id: 'c2' }] }, { text: 'Done.' });
      await conversation.ask('Run it again.', { mode: 'bypass', approver, onEvent: recorder.onEvent });
    } finally {
      await conversation.close();
    }
    expect(approver.asks.map((ask) => ask.callId)).toEqual(['c2']);
    expect(recorder.of('tool_confirmation').find((event) => event.callId === 'c2')?.confirmation.rules).toEqual([{ id: 'r1', text: 'ask bash echo' }]);
  });

  it('stops the call, and the turn, when the ledger cannot be written', async () => {
    fx = await makeAgentFixture();
    await fs.mkdir(path.join(fx.home, '.mino'), { recursive: true });
    // A file where the ledger's folder belongs: nothing can be appended.
    await fs.writeFile(path.join(fx.home, '.mino', 'ledger'), 'not a folder');
    fx.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'made.txt', content: 'x', mode: 'create' }, call_id: 'w' }] }, { text: 'Done.' });
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);
    let outcome;
    try {
      outcome = await conversation.ask('Write it.', { mode: 'bypass', approver: recordingApprover(), onEvent: recorder.onEvent });
    } finally {
      await conversation.close();
    }
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringContaining('Could not write the decision ledger') });
    await expect(fs.access(fx.file('made.txt'))).rejects.toThrow();
  });

  it('refuses every call, saying why, while the rules file cannot be read, and leaves it as it was', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    await fs.mkdir(path.join(fx.home, '.mino'), { recursive: true });
    await fs.writeFile(rulesFilePath(fx.home), '{ broken', { mode: 0o600 });
    const run = await runCallAsLoop(fx, { name: 'read_file', arguments: { path: 'a.txt' } }, { mode: 'bypass' });
    expect(run.result.status).toBe('denied');
    expect(run.result.output).toMatch(/^Blocked: the person's rules cannot be read, so no call runs until they can\. .*rules\.json is not valid JSON/);
    expect(await fs.readFile(rulesFilePath(fx.home), 'utf8')).toBe('{ broken');
  });

  it.skipIf(!sandboxed)('leaves the rules file out of the model\'s reach: neither a file tool nor a command changes it', async () => {
    fx = await makeAgentFixture();
    await addRule(fx, 'deny bash git push');
    const before = await fs.readFile(rulesFilePath(fx.home), 'utf8');
    const write = await runCallAsLoop(fx, { name: 'write_file', arguments: { path: path.relative(fx.project, rulesFilePath(fx.home)), content: '{}', mode: 'overwrite' } }, { mode: 'bypass' });
    expect(write.result.status).not.toBe('completed');
    const command = await runCallAsLoop(fx, bash(`echo '{}' > ${rulesFilePath(fx.home)}; echo '{}' > ~/.mino/rules.json`), { mode: 'bypass', approve: true });
    expect(command.result.status).not.toBe('denied');
    expect(await fs.readFile(rulesFilePath(fx.home), 'utf8')).toBe(before);
  });
});
