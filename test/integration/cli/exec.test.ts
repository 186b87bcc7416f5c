// `mino exec` as a person or a script runs it: a real child process, a real
// temp home and project, and the loopback mock model service.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, SANDBOX_TURNED_OFF } from '../../../src/main/core/agent/defaultDeps';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { sandboxStatusOf, sandboxStatusText } from '../../../src/shared/sandboxStatus';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { loadSession } from '../../../src/main/core/sessions/load';
import { makeAgentFixture, outputsIn, type AgentFixture } from '../../support/agentFixture';
import { cliArgs } from '../../support/builtCli';

const GREET = 'package main\n\nconst greeting = "hi"\n';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function startCli(fx: AgentFixture, args: string[], cwd = fx.project): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, cliArgs(...args), { cwd, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

const runCli = (fx: AgentFixture, args: string[], cwd?: string) => startCli(fx, args, cwd).done;

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls until `check` holds; only the test's own timeout bounds it, so a loaded machine is slow, not failing. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

// Each test runs the command as a child process, some of them twice: slow on a loaded two-core machine.
describe('mino exec', { timeout: 120_000 }, () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('prints one JSON object per line and exits 0 when the turn completes', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
    fx.server.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'c_read' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'c_edit' }] },
      { text: 'Changed it.' },
    );
    const run = await runCli(fx, ['exec', '--json', '--approve', 'always', 'Change the greeting']);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ type: 'session' });
    expect(lines[0].id).toMatch(/^[0-9a-f]{32}$/);
    const kinds = lines.filter((l) => l.type !== 'tool_confirmation').map((l) => [l.type, l.call_id ?? l.status ?? null]);
    expect(kinds).toEqual([
      ['session', null],
      ['tool_call', 'c_read'],
      ['tool_result', 'c_read'],
      ['tool_call', 'c_edit'],
      ['approval', 'c_edit'],
      ['tool_result', 'c_edit'],
      ['assistant_text', null],
      ['turn_end', 'completed'],
    ]);
    expect(lines.find((l) => l.type === 'tool_call' && l.call_id === 'c_read')).toMatchObject({ decision: 'allow', mode: 'manual', name: 'read_file' });
    expect(lines.find((l) => l.type === 'tool_call' && l.call_id === 'c_edit')).toMatchObject({ decision: 'ask' });
    expect(lines.find((l) => l.type === 'approval')).toMatchObject({ approved: true });
    expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toContain('"hello"');
  });

  it("prints the book's transcript form, and --approve never denies the ask", async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
    fx.server.enqueue(
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' } }] },
      { text: 'You did not approve the edit.' },
    );
    const run = await runCli(fx, ['exec', 'Change the greeting in greet.go to "hello".']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('You> Change the greeting in greet.go to "hello".');
    expect(run.stdout).toContain(
      [
        '[Tool: edit_file]',
        'Path: "greet.go"',
        `Project directory: "${fx.project}"`,
        'Starting line: "3"',
        'Remove: "\\"hi\\""',
        'Insert: "\\"hello\\""',
        'Resulting file: "39 bytes, 3 lines"',
        'Writes with your account permissions; approval applies only to this change to the current file.',
        'Approve this operation? [y/N] n (--approve never)',
      ].join('\n'),
    );
    expect(run.stdout).toContain('[Tool result: denied]');
    expect(run.stdout).toContain('Assistant> You did not approve the edit.');
    expect(run.stdout).toMatch(/^Context window: 128000 tokens \(default\)\.\nSession: [0-9a-f]{32}\nPermission mode: manual\. Use --mode to change it\.\n/);
    expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toBe(GREET);
  });

  it('names what sandboxes its bash commands, program and version, in the banner and the JSON session line', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
    // What this machine has, found as the child will find it.
    const machine = sandboxStatusOf(await sandboxAvailability());
    fx.server.enqueue({ text: 'Hello.' }, { text: 'Hello.' });
    const text = await runCli(fx, ['exec', 'Say hello.']);
    expect(text.stdout).toMatch(/^Context window: .*\nSession: [0-9a-f]{32}\nPermission mode: manual\. Use --mode to change it\.\nSandbox: .*\.\n\n/);
    const line = text.stdout.split('\n')[3];
    expect(line).toBe(`Sandbox: ${sandboxStatusText(machine)}.`);
    if (machine.available && machine.kind === 'bwrap') expect(line).toMatch(/^Sandbox: Linux bubblewrap \d+\.\d+\S* at \/\S+\/bwrap\.$/);

    const json = jsonLines((await runCli(fx, ['exec', '--json', 'Say hello.'])).stdout);
    expect(json[0]).toEqual({ type: 'session', id: expect.stringMatching(/^[0-9a-f]{32}$/), context_window: 128000, mode: 'manual', sandbox: machine });
  });

  it('says in the banner that commands are not sandboxed, and why, when the sandbox is turned off', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
    await writePrivateFile((await ensureMinoHome(fx.home)).config, '{ "bashSandbox": false }\n');
    fx.server.enqueue({ text: 'Hello.' });
    const run = await runCli(fx, ['exec', 'Say hello.']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[3]).toBe(`Sandbox: not available: ${SANDBOX_TURNED_OFF}.`);
  });

  it('escapes terminal control characters from files and the model, so nothing can rewrite the screen', async () => {
    fx = await makeAgentFixture({ files: { 'color.txt': 'plain\u001b[2J\u001b[31mred\r\nnext\rhidden\n' } });
    fx.server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'color.txt' } }] }, { text: 'Done\u001b[0m.' });
    const run = await runCli(fx, ['exec', 'read it']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/[\u001b\r]/);
    expect(run.stdout).toContain('plain⟨U+001B⟩[2J⟨U+001B⟩[31mred\nnext⟨U+000D⟩hidden');
    expect(run.stdout).toContain('Done⟨U+001B⟩[0m.');
  });

  // Every terminal control a C1 byte, DEL or ESC can carry, and the bidi controls that reorder a line.
  const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  it('marks C1 controls, DEL and bidi controls in confirmation fields, and warns before the ask', async () => {
    fx = await makeAgentFixture({ files: { 'auth.js': 'function check() {\n  return false;\n}\n' } });
    const sneaky = 'return false; \u202E } \u2066if (isAdmin)\u2069 \u2066{ grantAll();\u2069 \u009b2J\u007f';
    fx.server.enqueue(
      { calls: [{ name: 'edit_file', arguments: { path: 'auth.js', old_string: 'return false;', new_string: sneaky } }] },
      { text: 'Not approved.' },
    );
    const run = await runCli(fx, ['exec', 'fix auth']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain('Insert: "return false; ⟨U+202E⟩ } ⟨U+2066⟩if (isAdmin)⟨U+2069⟩ ⟨U+2066⟩{ grantAll();⟨U+2069⟩ ⟨U+009B⟩2J⟨U+007F⟩"');
    expect(run.stdout).toMatch(
      /Hidden characters: Insert and the changes contain invisible or bidirectional characters \(right-to-left override \(U\+202E\), left-to-right isolate \(U\+2066\), pop directional isolate \(U\+2069\), control character \(U\+009B\), delete \(U\+007F\)\), shown here as ⟨U\+…⟩ marks\. What is displayed may differ from what is written[^\n]*\n(.*\n)?Approve this operation\? \[y\/N\] n/,
    );
  });

  it('keeps raw values in --json output, escaped so that no control reaches the terminal', async () => {
    fx = await makeAgentFixture({ files: { 'auth.js': 'return false;\n' } });
    const sneaky = 'x\u202Ey\u009b\u007f';
    fx.server.enqueue(
      { calls: [{ name: 'edit_file', arguments: { path: 'auth.js', old_string: 'return false;', new_string: sneaky }, call_id: 'c1' }] },
      { text: 'Text \u202Ewith\u009b marks.' },
    );
    const run = await runCli(fx, ['exec', '--json', 'fix auth']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    const lines = jsonLines(run.stdout);
    const confirmation = lines.find((l) => l.type === 'tool_confirmation') as { fields: Array<{ label: string; value: string }> };
    expect(confirmation.fields.find((f) => f.label === 'Insert')?.value).toBe(sneaky);
    expect(lines.find((l) => l.type === 'assistant_text')).toMatchObject({ text: 'Text \u202Ewith\u009b marks.' });
  });

  it("escapes a model service's error text on stderr", async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ httpStatus: 400, body: { error: { message: 'bad \u001b]0;pwned\u0007 request \u001b[2J\u009b31m', type: 'invalid_request_error' } } });
    const run = await runCli(fx, ['exec', 'hello']);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stderr).toContain('bad ⟨U+001B⟩]0;pwned⟨U+0007⟩ request ⟨U+001B⟩[2J⟨U+009B⟩31m');
  });

  it('shows what a write will contain before asking', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue(
      { calls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# Notes\n\nFirst line.\n', mode: 'create' } }] },
      { text: 'Not written.' },
    );
    const run = await runCli(fx, ['exec', 'write notes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Preview:\n# Notes\n\nFirst line.\n(end of preview)\nWrites with your account permissions');
    await expect(fs.access(fx.file('notes.md'))).rejects.toThrow();
  });

  it('shows the allowed-without-confirmation record in accept-edits mode', async () => {
    fx = await makeAgentFixture({ files: { 'notes.md': '# Relase notes\n' } });
    fx.server.enqueue(
      { calls: [{ name: 'edit_file', arguments: { path: 'notes.md', old_string: 'Relase', new_string: 'Release' } }] },
      { text: 'Fixed.' },
    );
    const run = await runCli(fx, ['exec', '--mode', 'accept-edits', 'fix the typo']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[Tool: edit_file, allowed without confirmation in accept-edits mode]\nPath: "notes.md"');
    expect(run.stdout).not.toContain('Approve this operation?');
    expect(await fs.readFile(fx.file('notes.md'), 'utf8')).toBe('# Release notes\n');
  });

  it('offers project skills to the model, says on stderr which skills are not offered and why, and runs skill_view and make_directory', async () => {
    fx = await makeAgentFixture({
      files: {
        '.agents/skills/changelog/SKILL.md': '---\nname: changelog\ndescription: Keep CHANGELOG.md tidy.\n---\nAdd entries under Unreleased.\n',
        '.agents/skills/Bad/SKILL.md': '---\nname: Bad\ndescription: x\n---\n',
      },
    });
    fx.server.enqueue(
      { calls: [{ name: 'skill_view', arguments: { name: 'changelog' }, call_id: 'sv' }] },
      { calls: [{ name: 'make_directory', arguments: { path: 'docs/releases' }, call_id: 'md' }] },
      { text: 'Ready.' },
    );
    const run = await runCli(fx, ['exec', '--mode', 'accept-edits', 'prepare the release folder']);
    expect(run.code).toBe(0);
    const skillLines = run.stderr.split('\n').filter((line) => line.includes('skill'));
    expect(skillLines).toEqual([
      'mino: skill "Bad" (project, .agents/skills/Bad/SKILL.md) is not offered: name may contain only lowercase letters, digits and single hyphens between them (e.g. "pdf-tools").',
    ]);
    expect(fx.server.requests[0].body.instructions).toContain('- changelog (project): "Keep CHANGELOG.md tidy."');
    expect(outputsIn(fx.server.requests[1].body)[0]).toMatchObject({ call_id: 'sv', status: 'completed', output: expect.stringContaining('Add entries under Unreleased.') });
    expect(run.stdout).toContain('[Tool: make_directory, allowed without confirmation in accept-edits mode]\nPath: "docs/releases"');
    expect((await fs.stat(fx.file('docs/releases'))).isDirectory()).toBe(true);
  });

  it.each([
    ['an unknown flag', ['exec', '--frobnicate', 'hi'], /Unknown option/i],
    ['a missing prompt', ['exec'], /No prompt given/],
    ['an unknown mode', ['exec', '--mode', 'yolo', 'hi'], /Unknown permission mode "yolo"/],
    ['a bad session id', ['exec', '--session', 'xyz', 'hi'], /not a session id/],
    ['an unknown command', ['frob'], /unknown command/],
    // The desktop's cap (SendMessageInputSchema), so a prompt neither front end sends is refused by both.
    ['a prompt over 100,000 characters', ['exec', 'x'.repeat(100_001)], /The message is longer than 100,000 characters/],
  ])('exits 2 on %s', async (_name, args, message) => {
    fx = await makeAgentFixture();
    const run = await runCli(fx, args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(fx.server.requests).toHaveLength(0);
  });

  it('with --verbose writes the trail to stderr, here the repair of a session log\'s broken last line; without it, nothing', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
    const first = await runCli(fx, ['exec', '--json', 'Start']);
    const id = (jsonLines(first.stdout)[0] as { id: string }).id;
    const file = path.join(fx.home, '.mino', 'sessions', `${id}.jsonl`);

    await fs.appendFile(file, '{"type":"us');
    const quiet = await runCli(fx, ['exec', '--session', id, 'Again']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toMatch(/session\.tail_set_aside/);

    await fs.appendFile(file, '{"type":"us');
    const verbose = await runCli(fx, ['exec', '--verbose', '--session', id, 'Once more']);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(new RegExp(`^\\S+Z warn session\\.tail_set_aside session=${id} line=\\d+ bytes=11 `, 'm'));
    expect(verbose.stderr).not.toContain('test-key');
    // Three runs of the CLI: more time than one.
  }, 60_000);

  it('exits 2 for a missing project directory and for a project that contains ~/.mino, creating no session', async () => {
    fx = await makeAgentFixture();
    const missing = await runCli(fx, ['exec', '--project', path.join(fx.project, 'nope'), 'hi']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
    const home = await runCli(fx, ['exec', '--project', fx.home, 'hi']);
    expect(home.code).toBe(2);
    expect(home.stderr).toMatch(/\.mino/);
    const sessions = await fs.readdir(path.join(fx.home, '.mino', 'sessions')).catch(() => []);
    expect(sessions).toEqual([]);
    expect(fx.server.requests).toHaveLength(0);
  });

  it('exits 1 when the model service fails', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ httpStatus: 401, body: { error: { message: 'bad key', type: 'invalid_request_error' } } });
    const run = await runCli(fx, ['exec', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Turn ended \(failed\)/);
  });

  it('after a kill during a command, the session needs acknowledgment (exit 3) and never runs the command again', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({
      calls: [{ name: 'bash', arguments: { command: 'echo run >> runs.log; exec sleep 60' }, call_id: 'c_bash' }],
    });
    const first = startCli(fx, ['exec', '--json', '--mode', 'bypass', 'run it']);
    await waitFor(async () => (await fs.readFile(fx.file('runs.log'), 'utf8').catch(() => '')) === 'run\n');
    first.child.kill('SIGKILL');
    const killed = await first.done;
    const sessionId = String(jsonLines(killed.stdout)[0].id);
    // Nothing here ends the command: in the sandbox it dies with the CLI, and
    // outside it the resume below ends what still carries the call's mark. (A
    // pid the command reports from inside the sandbox is a namespace pid and
    // must never be signalled from out here.)

    const loaded = await loadSession(fx.home, sessionId, new ToolRegistry(BUILTIN_TOOLS).validateCall);
    expect(loaded.unknownCalls.map((c) => c.call_id)).toEqual(['c_bash']);

    const refused = await runCli(fx, ['exec', '--session', sessionId, 'continue']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('c_bash');
    expect(fx.server.requests).toHaveLength(1);

    fx.server.enqueue({ text: 'The earlier command has an unknown outcome.' });
    const resumed = await runCli(fx, ['exec', '--json', '--session', sessionId, '--acknowledge', 'continue']);
    expect(resumed.code).toBe(0);
    expect(await fs.readFile(fx.file('runs.log'), 'utf8')).toBe('run\n');
    const outputs = outputsIn(fx.server.requests.at(-1)!.body);
    expect(outputs).toEqual([expect.objectContaining({ call_id: 'c_bash', status: 'unknown' })]);
  });
});

describe('mino exec when the session cannot be saved', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('stops the turn at once, runs nothing, and exits 1 when the disk refuses a record (file size limit)', async () => {
    fx = await makeAgentFixture();
    // The response record is larger than the process may write: saving it fails, so its call must not run.
    fx.server.enqueue({ calls: [{ name: 'bash', arguments: { command: `touch ran # ${'x'.repeat(20_000)}` } }] });
    const child = spawn('bash', ['-c', 'ulimit -f 8; exec "$@"', 'bash', process.execPath, ...cliArgs('exec', '--mode', 'bypass', 'go')], {
      cwd: fx.project,
      env: { ...fx.env, TSX_DISABLE_CACHE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/Could not save to the session log/);
    await expect(fs.access(fx.file('ran'))).rejects.toThrow();
  });
});
