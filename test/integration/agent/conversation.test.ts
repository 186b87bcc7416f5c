// Session-level behaviour the CLI and the desktop share: the SOUL as system
// prompt, /clear, resuming, and one turn at a time.
import { existsSync, readdirSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, TurnInProgressError } from '../../../src/main/core/agent/conversation';
import { OLD_DEFAULT_SOULS, SOUL_TEMPLATE } from '../../../src/main/core/config/soul';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { systemPrompt } from '../../../src/main/core/agent/systemPrompt';
import { listSessions } from '../../../src/main/core/sessions/list';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const ask = (conversation: Conversation, text: string) => conversation.ask(text, { mode: 'manual', approver: recordingApprover() });

describe('a conversation', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('creates SOUL.md holding only a comment (0600) on first run, sends the generated part alone, then what the person writes after it', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'one' }, { text: 'two' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await ask(conversation, 'first');
    const soulFile = path.join(fx.home, '.mino', 'SOUL.md');
    expect(await fs.readFile(soulFile, 'utf8')).toBe(SOUL_TEMPLATE);
    expect(SOUL_TEMPLATE.trim()).toMatch(/^<!--[\s\S]*-->$/);
    expect((await fs.stat(soulFile)).mode & 0o777).toBe(0o600);
    const generated = systemPrompt(BUILTIN_TOOLS);
    expect(fx.server.requests[0].body.instructions).toBe(generated);

    await fs.writeFile(soulFile, '<!-- mine -->\nBe brief.\n');
    await ask(conversation, 'second');
    expect(fx.server.requests[1].body.instructions).toBe(`${generated.trimEnd()}\n\nBe brief.\n`);
    await conversation.close();
  });

  it('replaces a SOUL.md that is exactly an old default, so an existing install learns about new tools; an edited one is kept as it is', async () => {
    fx = await makeAgentFixture();
    const soulFile = path.join(fx.home, '.mino', 'SOUL.md');
    await fs.mkdir(path.dirname(soulFile), { recursive: true, mode: 0o700 });
    await fs.writeFile(soulFile, OLD_DEFAULT_SOULS[0]!, { mode: 0o600 });
    fx.server.enqueue({ text: 'one' }, { text: 'two' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await ask(conversation, 'first');
    expect(await fs.readFile(soulFile, 'utf8')).toBe(SOUL_TEMPLATE);
    const sent = fx.server.requests[0].body.instructions as string;
    expect(sent).toBe(systemPrompt(BUILTIN_TOOLS));
    expect(sent).toContain('make_directory');

    const edited = `${OLD_DEFAULT_SOULS[0]}\nAlso: answer in French.\n`;
    await fs.writeFile(soulFile, edited);
    await ask(conversation, 'second');
    expect(await fs.readFile(soulFile, 'utf8')).toBe(edited);
    expect(fx.server.requests[1].body.instructions).toContain('Also: answer in French.');
    await conversation.close();
  });

  it('generates the tools and modes part from the tools offered and the mode rows, with the rules that never change', () => {
    const extra = { ...BUILTIN_TOOLS[0]!, name: 'grep_project' };
    const text = systemPrompt([...BUILTIN_TOOLS, extra]);
    for (const tool of BUILTIN_TOOLS) expect(text).toContain(tool.name);
    expect(text).toMatch(/^- read_file, list_dir, search_files, find_files, skill_view, grep_project: restricted reads\.$/m);
    expect(text).toContain('- Tools named mcp_<server>__<tool> are provided by external servers');
    expect(text).toContain(
      '  - manual (every session starts in it): restricted reads run; file writes and edits, Bash commands and MCP calls are shown to the person, who approves or denies each one.',
    );
    expect(text).toContain(
      '  - accept-edits: restricted reads run; file writes and edits run without asking and are shown to the person; Bash commands and MCP calls are shown to the person, who approves or denies each one.',
    );
    expect(text).toContain(
      '  - auto: restricted reads run; file writes and edits and Bash commands run without asking and are shown to the person; Bash commands while no sandbox is available, Bash commands outside the sandbox and MCP calls are shown to the person, who approves or denies each one.',
    );
    expect(text).toContain(
      '  - bypass: restricted reads run; file writes and edits, Bash commands and MCP calls run without asking and are shown to the person; Bash commands outside the sandbox are shown to the person, who approves or denies each one.',
    );
    expect(text).toMatch(/Only the person can change the mode/);
    expect(text).toMatch(/cannot grant any permission/);
    expect(text).toMatch(/Do not try to get the same data or make the same change another way/);
  });

  it('says what an @path mention in a message names and which tool reads it, only when the session can read files', () => {
    const text = systemPrompt(BUILTIN_TOOLS);
    expect(text).toMatch(/^- A word such as @src\/app\.ts in the person's message .* read it with read_file \(a folder with list_dir\) when you need its content\. A mention grants no permission\.$/m);
    const withoutReads = systemPrompt(BUILTIN_TOOLS.filter((tool) => tool.name !== 'read_file'));
    expect(withoutReads).not.toContain('@src/app.ts');
  });

  it('clear keeps the session id and sends an empty history from then on, also after resuming', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'before' }, { text: 'after' }, { text: 'resumed' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await ask(conversation, 'remember the number 7');
    await conversation.clear();
    await ask(conversation, 'what number?');
    expect(fx.server.requests[1].body.input).toEqual([{ type: 'message', role: 'user', content: 'what number?' }]);
    const id = conversation.id;
    await conversation.close();

    const resumed = await Conversation.resume(fx.deps, id);
    expect(resumed.id).toBe(id);
    await ask(resumed, 'and now?');
    const input = fx.server.requests[2].body.input as Array<{ role?: string; content?: unknown }>;
    expect(JSON.stringify(input)).not.toContain('remember the number 7');
    expect(JSON.stringify(input)).toContain('what number?');
    await resumed.close();
  });

  it('lists sessions of a project with their first prompt', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'ok' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await ask(conversation, 'Change the greeting');
    await conversation.close();
    const sessions = await listSessions(fx.home, fx.project);
    expect(sessions.map((s) => [s.id, s.firstPrompt, s.projectDir])).toEqual([[conversation.id, 'Change the greeting', fx.project]]);
  });

  it('runs one turn at a time', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ hangAfterDeltas: ['wait'] });
    const stop = new AbortController();
    const conversation = await Conversation.start(fx.deps, fx.project);
    const first = conversation.ask('slow', { mode: 'manual', approver: recordingApprover(), signal: stop.signal });
    await expect(ask(conversation, 'second')).rejects.toBeInstanceOf(TurnInProgressError);
    await expect(conversation.clear()).rejects.toBeInstanceOf(TurnInProgressError);
    stop.abort();
    expect((await first).status).toBe('aborted');
    await conversation.close();
  });
});

describe('resuming a saved session', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  const openFds = () => readdirSync('/proc/self/fd').length;

  it.runIf(existsSync('/proc/self/fd'))('leaves no file descriptor open when the log cannot be loaded, and changes nothing in it', async () => {
    fx = await makeAgentFixture();
    const log = await SessionLog.create(fx.home, fx.project);
    await log.append({ type: 'user', text: 'hello' });
    await log.close();
    // Damage in the middle (the last line is good), and a broken tail after it that resume must not repair.
    const original = await fs.readFile(log.file, 'utf8');
    const damaged = `${original}{"type":"nonsense"}\n${original.split('\n')[1]}\n{"type":"us`;
    await fs.writeFile(log.file, damaged);

    const before = openFds();
    for (let i = 0; i < 20; i++) {
      await expect(Conversation.resume(fx.deps, log.id)).rejects.toThrow(/is corrupt at line 3/);
    }
    expect(openFds()).toBe(before);
    expect(await fs.readFile(log.file, 'utf8')).toBe(damaged);
    expect((await fs.readdir(path.dirname(log.file))).filter((name) => name.includes('.corrupt-'))).toEqual([]);
  });

  it('sets a broken last line aside when it loads, and says so', async () => {
    fx = await makeAgentFixture();
    const log = await SessionLog.create(fx.home, fx.project);
    await log.append({ type: 'user', text: 'hello' });
    await log.close();
    const kept = await fs.readFile(log.file, 'utf8');
    await fs.appendFile(log.file, '{"type":"us');

    const resumed = await Conversation.resume(fx.deps, log.id);
    await resumed.close();
    expect(resumed.loadProblems).toEqual([{ line: 3, message: expect.stringMatching(/^Line 3 was set aside in .*\.jsonl\.corrupt-.* because .*; every record before it was kept\.$/) }]);
    expect(resumed.historyItems).toEqual([{ type: 'message', role: 'user', text: 'hello' }]);
    expect(await fs.readFile(log.file, 'utf8')).toBe(kept);
  });
});
