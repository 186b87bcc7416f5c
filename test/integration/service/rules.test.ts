// The person's rules and the ledger through the real service: what a window
// may change, what waits for the person's yes in main's own dialog, and
// "Always allow" from an ask.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { rulesInScope } from '../../../src/main/core/rules/ruleService';
import { changeRulesFile, withRule } from '../../../src/main/core/rules/rulesFile';
import type { ApprovalAnswerResult } from '../../../src/shared/sessions';
import type { LedgerView, RuleChangeResult, RulesView } from '../../../src/shared/rules';
import { makeServiceHarness, type FakeClient, type ServiceHarness } from './harness';

const ECHO = { calls: [{ name: 'bash', arguments: { command: 'echo always' }, call_id: 'call_echo' }] };

describe('rules through the service', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  async function projectClient(name: string): Promise<FakeClient> {
    const client = h.connect(name);
    h.picker.willPick(h.project);
    await client.value('projects:pick');
    return client;
  }

  it('saves a tightening rule at once, and lists it beside the global ones', async () => {
    h = await makeServiceHarness();
    const client = await projectClient('a');
    const added = await client.value<RuleChangeResult>('rules:add', { scope: 'project', text: 'deny  bash git push' });
    expect(added).toMatchObject({ status: 'changed', message: 'Saved r1 "deny bash git push" for this project.' });
    await client.value('rules:add', { scope: 'global', text: 'protect secrets/**' });
    expect(h.native.questions).toEqual([]);
    const view = await client.value<RulesView>('rules:list');
    expect(view.rules.map((rule) => [rule.id, rule.text, rule.scope])).toEqual([['r2', 'protect secrets/**', 'global'], ['r1', 'deny bash git push', 'project']]);
    expect(view.problem).toBeNull();
  });

  it('saves an allow rule only on the person\'s yes in main\'s dialog, which shows the rule as it will be saved', async () => {
    h = await makeServiceHarness();
    const client = await projectClient('a');
    const declined = await client.value<RuleChangeResult>('rules:add', { scope: 'project', text: 'allow bash npm   test' });
    expect(declined).toMatchObject({ status: 'unchanged', message: 'You did not confirm the rule "allow bash npm test", so nothing was saved.' });
    expect(h.native.questions).toEqual([expect.objectContaining({ message: `Always allow in ${h.project}: allow bash npm test`, confirmLabel: 'Save rule' })]);
    expect(declined.view.rules).toEqual([]);
    h.native.answer = true;
    expect(await client.value<RuleChangeResult>('rules:add', { scope: 'project', text: 'allow bash npm test' })).toMatchObject({ status: 'changed', view: { rules: [{ text: 'allow bash npm test' }] } });
  });

  it('refuses a bad rule with what is wrong, asking nothing and saving nothing', async () => {
    h = await makeServiceHarness();
    const client = await projectClient('a');
    const refused = await client.value<RuleChangeResult>('rules:add', { scope: 'project', text: 'ask file ../outside' });
    expect(refused).toMatchObject({ status: 'error', message: expect.stringMatching(/^Not a valid rule: "\.\.\/outside" escapes the project .* Nothing was saved\.$/) });
    const noProject = await h.connect('b').value<RuleChangeResult>('rules:add', { scope: 'project', text: 'deny bash rm' });
    expect(noProject).toMatchObject({ status: 'error', message: expect.stringContaining('Open a project first') });
    expect(h.native.questions).toEqual([]);
    expect(await rulesInScope(h.home, { global: true })).toEqual([]);
  });

  it('asks before removing a deny rule, not before removing an allow rule, and never reaches another project\'s rules', async () => {
    h = await makeServiceHarness();
    const client = await projectClient('a');
    await changeRulesFile(h.home, (file) => withRule(file, { project: h.project }, 'deny bash rm', '2026-01-01T00:00:00.000Z'));
    await changeRulesFile(h.home, (file) => withRule(file, { project: h.project }, 'allow bash ls', '2026-01-01T00:00:00.000Z'));
    await changeRulesFile(h.home, (file) => withRule(file, { project: '/elsewhere' }, 'deny bash curl', '2026-01-01T00:00:00.000Z'));

    expect(await client.value<RuleChangeResult>('rules:remove', { id: 'r2' })).toMatchObject({ status: 'changed', message: 'Removed r2 "allow bash ls".' });
    expect(h.native.questions).toEqual([]);
    expect(await client.value<RuleChangeResult>('rules:remove', { id: 'r1' })).toMatchObject({ status: 'unchanged' });
    expect(h.native.questions).toEqual([expect.objectContaining({ message: 'Remove r1 "deny bash rm"?' })]);
    expect(await client.value<RuleChangeResult>('rules:remove', { id: 'r3' })).toMatchObject({ status: 'error', message: expect.stringContaining('There is no rule r3') });
    h.native.answer = true;
    expect(await client.value<RuleChangeResult>('rules:remove', { id: 'r1' })).toMatchObject({ status: 'changed', view: { rules: [] } });
    expect((await rulesInScope(h.home, { project: '/elsewhere' })).map((rule) => rule.text)).toEqual(['deny bash curl']);
  });

  it('reports a rules file it cannot read, and changes nothing in it', async () => {
    h = await makeServiceHarness();
    const client = await projectClient('a');
    await fs.mkdir(`${h.home}/.mino`, { recursive: true });
    await fs.writeFile(`${h.home}/.mino/rules.json`, '{ broken', { mode: 0o600 });
    const view = await client.value<RulesView>('rules:list');
    expect(view.problem).toMatch(/rules\.json is not valid JSON.*every tool call is refused/s);
    expect(await client.call('rules:add', { scope: 'project', text: 'deny bash rm' })).toMatchObject({ ok: false });
    expect(await fs.readFile(`${h.home}/.mino/rules.json`, 'utf8')).toBe('{ broken');
  });
});

describe('"Always allow" from an ask', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('offers the rule with the ask; cancelling in main keeps the ask waiting; yes saves the rule and runs the call', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(ECHO, { text: 'Done.' });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Run echo.' });
    const request = await client.next('approval:request');
    expect(request.alwaysAllow).toMatch(/^allow bash(-outside)? echo always$/);

    const cancelled = await client.value<ApprovalAnswerResult>('approvals:answer', { requestId: request.requestId, approved: true, alwaysAllow: true });
    expect(cancelled).toEqual({ accepted: false, open: true, message: expect.stringContaining(`You did not confirm the rule "${request.alwaysAllow}"`) });
    expect(h.native.questions.at(-1)).toMatchObject({ message: `Approve this call and save the rule: ${request.alwaysAllow}` });
    expect(client.of('approval:closed')).toEqual([]);

    h.native.answer = true;
    const saved = await client.value<ApprovalAnswerResult>('approvals:answer', { requestId: request.requestId, approved: true, alwaysAllow: true });
    expect(saved).toEqual({ accepted: true, message: `Saved r1 "${request.alwaysAllow}" for this project.` });
    expect((await client.turnFinished()).end.status).toBe('completed');
    expect(client.turnEvents().find((event) => event.type === 'tool_result')).toMatchObject({ status: 'completed' });
    expect((await rulesInScope(h.home, { project: h.project })).map((rule) => rule.text)).toEqual([request.alwaysAllow]);

    const ledger = await client.value<LedgerView>('ledger:list', {});
    expect(ledger.entries[0]).toMatchObject({ tool: 'bash', target: 'echo always', decision: 'allow', answer: true, by: { kind: 'person', approved: true, savedRule: { id: 'r1' } } });
    expect(ledger.entries[1]).toMatchObject({ decision: 'ask', by: { kind: 'mode', mode: 'manual' } });
  });

  it('saves nothing for an ask that offers no rule: the page cannot name one', async () => {
    h = await makeServiceHarness();
    h.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'x', mode: 'create' }, call_id: 'w' }] }, { text: 'Done.' });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Write it.' });
    const request = await client.next('approval:request');
    expect(request.alwaysAllow).toBeUndefined();
    h.native.answer = true;
    expect(await client.value('approvals:answer', { requestId: request.requestId, approved: true, alwaysAllow: true })).toMatchObject({ accepted: false, open: true });
    expect(h.native.questions).toEqual([]);
    expect(await client.value('approvals:answer', { requestId: request.requestId, approved: false })).toEqual({ accepted: true });
    await client.turnFinished();
    expect(await rulesInScope(h.home, { project: h.project })).toEqual([]);
  });
});

describe('the ledger through the service', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('lists the project\'s decisions newest first, filtered by session, tool, decision and text', async () => {
    h = await makeServiceHarness();
    h.server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'r' }] }, { text: 'Read.' });
    h.server.enqueue({ calls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'x', mode: 'create' }, call_id: 'w' }] }, { text: 'Denied.' });
    const { client, session } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Read it.' });
    await client.turnFinished();
    const from = client.received.length;
    await client.value('turn:send', { text: 'Write it.' });
    const request = await client.next('approval:request', () => true, from);
    await client.value('approvals:answer', { requestId: request.requestId, approved: false });
    await client.turnFinished(from);

    const all = await client.value<LedgerView>('ledger:list', {});
    expect(all.entries.map((entry) => [entry.tool, entry.decision])).toEqual([['write_file', 'deny'], ['write_file', 'ask'], ['read_file', 'allow']]);
    expect(all).toMatchObject({ total: 3, matched: 3, sessions: [session.id], tools: ['read_file', 'write_file'], problems: [] });
    expect((await client.value<LedgerView>('ledger:list', { decision: 'deny' })).entries).toEqual([expect.objectContaining({ by: { kind: 'person', approved: false } })]);
    expect((await client.value<LedgerView>('ledger:list', { search: 'GREET.GO' })).entries.map((entry) => entry.target)).toEqual(['greet.go']);
    expect((await client.value<LedgerView>('ledger:list', { search: 'declined by you' })).matched).toBe(1);
    expect((await client.value<LedgerView>('ledger:list', { tool: 'read_file', session: 'f'.repeat(32) })).entries).toEqual([]);
    expect(await h.connect('b').call('ledger:list', {})).toMatchObject({ ok: false, error: expect.stringContaining('Open a project first') });
  });
});
