// A session in manual mode searches the project with search_files and
// find_files without a single ask, and finds nothing in .env, in an ignored
// node_modules or behind a link out of the project. Only the model is fake.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { systemPrompt } from '../../../src/main/core/agent/systemPrompt';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const SECRET = 'SECRET-5d1e-never-to-the-model';

describe('search tools in a session', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('search a regex, a literal, a glob and with context in manual mode without asking, and never reach .env, ignored or linked-out files', async () => {
    fx = await makeAgentFixture({
      files: {
        '.gitignore': 'node_modules/\n',
        '.env': `API_KEY=${SECRET}\n`,
        'src/greet.ts': 'export function greet(name: string) {\n  return `hello ${name}`;\n}\n',
        'src/main.ts': "import { greet } from './greet';\n\nconsole.log(greet('world'));\n",
        'node_modules/lib/index.js': `module.exports = '${SECRET}'; // greet\n`,
        'docs/notes.md': 'Call greet( with a name.\n',
      },
    });
    const outside = path.join(path.dirname(fx.project), 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'leak.ts'), `export const greet = '${SECRET}';\n`);
    await fs.symlink(outside, fx.file('linked'));

    fx.server.enqueue(
      { calls: [{ name: 'search_files', arguments: { pattern: 'function\\s+greet' }, call_id: 'regex' }] },
      { calls: [{ name: 'search_files', arguments: { pattern: 'greet(', fixed_strings: true }, call_id: 'literal' }] },
      { calls: [{ name: 'search_files', arguments: { pattern: 'greet', glob: '*.md' }, call_id: 'glob' }] },
      { calls: [{ name: 'search_files', arguments: { pattern: 'return', context: 1 }, call_id: 'context' }] },
      { calls: [{ name: 'search_files', arguments: { pattern: 'SECRET|API_KEY' }, call_id: 'secret' }] },
      { calls: [{ name: 'find_files', arguments: { pattern: '**/*.ts', sort: 'name' }, call_id: 'find' }] },
      { text: 'greet is defined in src/greet.ts and called in src/main.ts.' },
    );
    const approver = recordingApprover(() => false);
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('Where is greet defined and used?', { mode: 'manual', approver, onEvent: recorder.onEvent });
    await conversation.close();

    expect(approver.asks).toEqual([]);
    const results = Object.fromEntries(recorder.of('tool_result').map((r) => [r.callId, r]));
    for (const id of ['regex', 'literal', 'glob', 'context', 'secret', 'find']) expect(results[id]?.status, id).toBe('completed');
    expect(results.regex.output.split('\n')[0]).toBe('src/greet.ts:1:export function greet(name: string) {');
    expect(results.literal.output.split('\n').slice(0, -1)).toEqual([
      'docs/notes.md:1:Call greet( with a name.',
      'src/greet.ts:1:export function greet(name: string) {',
      "src/main.ts:3:console.log(greet('world'));",
    ]);
    expect(results.glob.output.split('\n')[0]).toBe('docs/notes.md:1:Call greet( with a name.');
    expect(results.context.output.split('\n').slice(0, -1)).toEqual([
      'src/greet.ts-1-export function greet(name: string) {',
      'src/greet.ts:2:  return `hello ${name}`;',
      'src/greet.ts-3-}',
    ]);
    expect(results.secret.output).toBe(
      '0 matching lines in 0 files; 4 files searched; skipped 1 protected entry (never opened), 1 entry ignored by .gitignore ("include_ignored": true includes them), 1 link (links are not followed).',
    );
    expect(results.find.output.split('\n').slice(0, -1)).toEqual(['src/greet.ts', 'src/main.ts']);

    // Nothing of the secret reached the model in any request.
    const sent = fx.server.requests.map((request) => request.raw).join('\n');
    expect(sent).not.toContain(SECRET);
  });

  it('tells the model to search with these tools rather than with grep, rg or find in bash', () => {
    expect(systemPrompt(BUILTIN_TOOLS)).toContain(
      '- Search the project with search_files (text in files, like rg) and find_files (files by a path glob), not with grep, rg, find or ls -R in bash: they run without asking in every mode, skip protected files and what .gitignore ignores, and follow no links.',
    );
  });
});
