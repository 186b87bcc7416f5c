// `mino rules` and `mino audit` as a person runs them, and `mino exec`
// applying the project's rules: a real child process, real temp home and
// project, the real sandbox, the mock model.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rulesFilePath } from '../../../src/main/core/rules/rulesFile';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { makeAgentFixture, outputsIn, type AgentFixture } from '../../support/agentFixture';
import { runCli } from '../../support/cliChild';



const jsonLines = (text: string) => text.trim().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

const sandboxed = (await sandboxAvailability()).available;

const COMPOUNDS = ['echo hi; touch pwned', 'echo $(touch pwned)', 'echo hi && touch pwned', 'echo hi\ntouch pwned', 'echo `touch pwned`'];

describe('mino rules and mino audit', { timeout: 120_000 }, () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it.skipIf(!sandboxed)('with "allow bash echo" for the project, exec --approve never runs echo hi and denies each compound form; audit lists why', async () => {
    fx = await makeAgentFixture();
    const added = await runCli(fx, ['rules', 'add', '--project', fx.project, 'allow', 'bash', 'echo']);
    expect(added).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Added r1 {2}allow bash echo {2}\(/) });

    const calls = [{ name: 'bash', arguments: { command: 'echo hi' }, call_id: 'plain' }, ...COMPOUNDS.map((command, index) => ({ name: 'bash', arguments: { command }, call_id: `c${index}` }))];
    fx.server.enqueue({ calls }, { text: 'Done.' });
    const run = await runCli(fx, ['exec', '--approve', 'never', 'Say hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[Tool: bash, allowed by rule r1 "allow bash echo"]');
    const outputs = outputsIn(fx.server.requests[1].body);
    expect(outputs.find((output) => output.call_id === 'plain')).toMatchObject({ status: 'completed', output: expect.stringContaining('hi') });
    for (let index = 0; index < COMPOUNDS.length; index++) expect(outputs.find((output) => output.call_id === `c${index}`)?.status).toBe('denied');
    await expect(fs.access(fx.file('pwned'))).rejects.toThrow();

    const audit = await runCli(fx, ['audit', '--json']);
    expect(audit.code).toBe(0);
    const entries = jsonLines(audit.stdout);
    expect(entries[0]).toMatchObject({ type: 'decision', call_id: 'plain', tool: 'bash', target: 'echo hi', decision: 'allow', by: { kind: 'rules', rules: [{ id: 'r1', text: 'allow bash echo' }] } });
    for (let index = 0; index < COMPOUNDS.length; index++) {
      expect(entries.filter((entry) => entry.call_id === `c${index}`).map((entry) => [entry.decision, (entry.by as { kind: string }).kind])).toEqual([
        ['ask', 'mode'],
        ['deny', 'person'],
      ]);
    }
    const text = await runCli(fx, ['audit']);
    expect(text.stdout).toContain('bash "echo hi": allow, by rule r1 "allow bash echo"');
  });

  it('deny bash rm refuses rm -rf x in bypass; protect refuses read_file in bypass; audit --session lists both with what decided', async () => {
    fx = await makeAgentFixture({ files: { 'x/keep.txt': 'kept\n', 'docs/secret.md': 'secret\n' } });
    expect((await runCli(fx, ['rules', 'add', '--global', 'deny', 'bash', 'rm'])).code).toBe(0);
    expect((await runCli(fx, ['rules', 'add', 'protect', 'docs/secret.md'])).code).toBe(0);
    fx.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: 'rm -rf x' }, call_id: 'rm' }, { name: 'read_file', arguments: { path: 'docs/secret.md' }, call_id: 'read' }] },
      { text: 'Done.' },
    );
    const run = await runCli(fx, ['exec', '--mode', 'bypass', '--json', 'Clean up']);
    expect(run.code).toBe(0);
    expect(await fs.readFile(fx.file('x/keep.txt'), 'utf8')).toBe('kept\n');
    const outputs = outputsIn(fx.server.requests[1].body);
    expect(outputs.map((output) => output.status)).toEqual(['denied', 'denied']);
    const session = jsonLines(run.stdout).find((line) => line.type === 'session')?.id as string;

    const audit = jsonLines((await runCli(fx, ['audit', '--session', session, '--json'])).stdout);
    expect(audit).toEqual([
      expect.objectContaining({ session, tool: 'bash', decision: 'deny', by: { kind: 'rules', rules: [{ id: 'r1', text: 'deny bash rm' }] } }),
      expect.objectContaining({ session, tool: 'read_file', target: 'docs/secret.md', decision: 'deny', by: { kind: 'protected', protected: 'docs/secret.md', rule: { id: 'r2', text: 'protect docs/secret.md' } } }),
    ]);
    expect(jsonLines((await runCli(fx, ['audit', '--session', 'f'.repeat(32), '--json'])).stdout)).toEqual([]);
  });

  it('lists, refuses a bad rule saving nothing, and removes by id', async () => {
    fx = await makeAgentFixture();
    expect((await runCli(fx, ['rules', 'add', '--global', 'deny', 'bash', 'git', 'push'])).code).toBe(0);
    expect((await runCli(fx, ['rules', 'add', 'ask', 'bash', 'rm', '-rf'])).code).toBe(0);

    // Every refusal is in the grammar's unit test; here, that the command says it and saves nothing.
    for (const bad of [['allow', 'bash'], ['off', 'nosuchtool']]) {
      const refused = await runCli(fx, ['rules', 'add', ...bad]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^mino: Not a valid rule: .* Nothing was saved\.\n/);
    }
    const listed = jsonLines((await runCli(fx, ['rules', 'list', '--json'])).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ type: 'rule', id: 'r1', text: 'deny bash git push', scope: 'global' }),
      expect.objectContaining({ type: 'rule', id: 'r2', text: 'ask bash rm -rf', scope: 'project', project: await fs.realpath(fx.project) }),
    ]);
    expect((await runCli(fx, ['rules', 'list', '--global'])).stdout).toBe('r1  deny bash git push  (global)\n');

    expect(await runCli(fx, ['rules', 'remove', 'r2'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Removed r2') });
    expect(await runCli(fx, ['rules', 'remove', 'r2'])).toMatchObject({ code: 1, stderr: expect.stringContaining('There is no rule r2.') });
    expect(((await fs.stat(rulesFilePath(fx.home))).mode & 0o777).toString(8)).toBe('600');
  });

  it('refuses to change a rules file it cannot parse, and leaves it as it was', async () => {
    fx = await makeAgentFixture();
    await fs.mkdir(path.join(fx.home, '.mino'), { recursive: true });
    await fs.writeFile(rulesFilePath(fx.home), '{ "version": 1, ', { mode: 0o600 });
    const run = await runCli(fx, ['rules', 'add', 'allow', 'bash', 'echo']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not valid JSON');
    expect(await fs.readFile(rulesFilePath(fx.home), 'utf8')).toBe('{ "version": 1, ');
  });
});
