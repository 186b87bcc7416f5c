// The built `mino exec` runs search_files and find_files (their worker thread
// is a file of the build, found beside main.js) and prints their results,
// from a folder with no node_modules above it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { buildCli, type BuiltCli } from '../../support/builtCli';
import { runCli } from '../../support/cliChild';

let cli: BuiltCli;

beforeAll(async () => {
  cli = await buildCli();
}, 120_000);

afterAll(async () => cli?.remove());

const runBuilt = (fx: AgentFixture, args: string[]) => runCli(fx, args, cli.entry);

describe('the search tools in the built mino exec', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('runs them in manual mode without asking and prints their results', async () => {
    fx = await makeAgentFixture({ files: { 'src/a.ts': 'export const answer = 42;\n', 'docs/b.md': 'The answer is here.\n' } });
    fx.server.enqueue(
      { calls: [{ name: 'search_files', arguments: { pattern: 'answer\\s*=' }, call_id: 'search' }] },
      { calls: [{ name: 'find_files', arguments: { pattern: '*.md' }, call_id: 'find' }] },
      { text: 'Found it.' },
    );
    const run = await runBuilt(fx, ['exec', '--approve', 'never', 'Where is the answer?']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '[Tool result: completed]\nsrc/a.ts:1:export const answer = 42;\n1 matching line in 1 file; 2 files searched; nothing skipped.\n',
    );
    expect(run.stdout).toContain('[Tool result: completed]\ndocs/b.md\n1 file matches "*.md", newest first (by modification time); nothing skipped.\n');
    expect(run.stdout).toContain('Found it.');
  });
});
