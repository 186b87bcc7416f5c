// What a sandboxed bash command changes is captured with its pre-images and
// reviewed, undone and redone like an edit: the real loop, the real bwrap,
// the real watch of a temp project, the real log and checkpoints. Only the
// model service is fake.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const availability = await sandboxAvailability();
// CI installs bubblewrap; elsewhere the reason is printed with the skip.
const describeSandbox = availability.available ? describe : describe.skip;
if (!availability.available) console.warn(`Capture tests skipped: ${availability.reason}`);

let fx: AgentFixture;
afterEach(async () => fx?.cleanup());

type Call = string | { command: string; sandbox?: boolean };

/** One turn in bypass mode whose calls are these bash commands; returns each result's output, in order. */
async function run(conversation: Conversation, calls: Call[], question = 'run them'): Promise<string[]> {
  const before = fx.server.requests.length;
  const id = (i: number) => `b${before}_${i}`;
  fx.server.enqueue({ calls: calls.map((c, i) => ({ name: 'bash', arguments: typeof c === 'string' ? { command: c } : c, call_id: id(i) })) }, { text: 'done' });
  // A command that asks to leave the sandbox asks even in bypass mode: approved here.
  const outcome = await conversation.ask(question, { mode: 'bypass', approver: recordingApprover(() => true) });
  expect(outcome.status).toBe('completed');
  const ids = calls.map((_, i) => id(i));
  const results = outputsIn(fx.server.requests[before + 1]!.body).filter((r) => ids.includes(r.call_id));
  for (const result of results) expect(result.status, result.output).toBe('completed');
  return results.map((r) => r.output);
}

async function filesIn(): Promise<string[]> {
  return (await fs.readdir(fx.project, { recursive: true })).sort();
}

async function modeOf(rel: string): Promise<number> {
  return (await fs.stat(fx.file(rel))).mode & 0o777;
}

describeSandbox('what a sandboxed command changes is captured for review and undo', () => {
  it('captures a file the command made; undo removes it and redo brings it back', async () => {
    fx = await makeAgentFixture();
    const conversation = await Conversation.start(fx.deps, fx.project);
    const [output] = await run(conversation, ['echo hi > a.txt']);
    expect(output).toBe('(no output)\nExit code: 0\n[Changes: captured for review and undo: a.txt (created).]');

    const [turn] = await conversation.changes();
    expect(turn).toMatchObject({ turn: 1, untrackedNote: null, files: [{ path: 'a.txt', action: 'created', added: 1, removed: 0, state: 'applied' }] });
    expect(turn.files[0].diff).toContain('+hi');

    expect((await conversation.reverse('undo')).files).toEqual([{ path: 'a.txt', outcome: 'restored' }]);
    expect(await filesIn()).toEqual([]);
    expect((await conversation.reverse('redo')).files).toEqual([{ path: 'a.txt', outcome: 'restored' }]);
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('hi\n');
    await conversation.close();
  });

  it('captures a change in place and one through a rename (sed -i), each undone by its own call', async () => {
    fx = await makeAgentFixture({ files: { 'notes.txt': 'one\ntwo\n' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await run(conversation, ['echo three >> notes.txt', 'sed -i s/one/ONE/ notes.txt']);
    const [turn] = await conversation.changes();
    expect(turn.files).toMatchObject([{ path: 'notes.txt', action: 'changed', added: 2, removed: 1, callIds: ['b0_0', 'b0_1'] }]);
    expect(turn.untrackedNote).toBeNull();

    await conversation.reverse('undo', { callId: 'b0_1' });
    expect(await fs.readFile(fx.file('notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    await conversation.reverse('undo');
    expect(await fs.readFile(fx.file('notes.txt'), 'utf8')).toBe('one\ntwo\n');
    await conversation.close();
  });

  it('captures a deleted file, a renamed file and folder and a change of permission bits, and undoes and redoes them all', async () => {
    fx = await makeAgentFixture({ files: { 'gone.txt': 'gone\n', 'old.txt': 'old\n', 'dir/inner.txt': 'inner\n', 'run.sh': 'echo run\n' } });
    await fs.chmod(fx.file('run.sh'), 0o644);
    const conversation = await Conversation.start(fx.deps, fx.project);
    const [output] = await run(conversation, ['rm gone.txt && mv old.txt new.txt && mv dir dir2 && chmod 755 run.sh']);
    expect(output).toContain('[Changes: captured for review and undo: ');
    const [turn] = await conversation.changes();
    const actions = Object.fromEntries(turn.files.map((f) => [f.path, f.action]));
    expect(actions).toEqual({
      'gone.txt': 'deleted',
      'old.txt': 'deleted',
      'new.txt': 'created',
      dir: 'deleted directory',
      'dir/inner.txt': 'deleted',
      dir2: 'created directory',
      'dir2/inner.txt': 'created',
      'run.sh': 'permissions changed',
    });
    expect(turn.files.find((f) => f.path === 'run.sh')!.diff).toBe('Permissions: 644 → 755');

    const undo = await conversation.reverse('undo');
    expect(undo.files.every((f) => f.outcome === 'restored'), JSON.stringify(undo.files)).toBe(true);
    expect(await filesIn()).toEqual(['dir', 'dir/inner.txt', 'gone.txt', 'old.txt', 'run.sh']);
    expect(await modeOf('run.sh')).toBe(0o644);

    const redo = await conversation.reverse('redo');
    expect(redo.files.every((f) => f.outcome === 'restored'), JSON.stringify(redo.files)).toBe(true);
    expect(await filesIn()).toEqual(['dir2', 'dir2/inner.txt', 'new.txt', 'run.sh']);
    expect(await modeOf('run.sh')).toBe(0o755);
    await conversation.close();
  });

  it('captures binary files byte for byte and shows them as binary', async () => {
    const blob = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    fx = await makeAgentFixture();
    await fs.writeFile(fx.file('blob.bin'), blob);
    const conversation = await Conversation.start(fx.deps, fx.project);
    await run(conversation, ["printf '\\x00\\xff\\xfe' >> blob.bin && printf '\\xc3\\x28 not utf-8' > made.bin"]);
    const [turn] = await conversation.changes();
    expect(turn.files.map((f) => [f.path, f.action, f.diff])).toEqual([
      ['made.bin', 'created', 'Binary file, not shown: nothing before, 12 bytes after.'],
      ['blob.bin', 'changed', 'Binary file, not shown: 256 bytes before, 259 bytes after.'],
    ]);

    await conversation.reverse('undo');
    expect(await fs.readFile(fx.file('blob.bin'))).toEqual(blob);
    expect(await filesIn()).toEqual(['blob.bin']);
    await conversation.reverse('redo');
    expect(await fs.readFile(fx.file('blob.bin'))).toEqual(Buffer.concat([blob, Buffer.from([0, 0xff, 0xfe])]));
    expect(await fs.readFile(fx.file('made.bin'))).toEqual(Buffer.from([0xc3, 0x28, ...Buffer.from(' not utf-8')]));
    await conversation.close();
  });

  it('captures a new folder tree, folders before what they hold, and undo removes it whole', async () => {
    fx = await makeAgentFixture({ files: { 'keep.txt': 'keep\n' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await run(conversation, ['mkdir -p a/b/c && echo x > a/b/c/d.txt && echo y > a/e.txt && ln -s b/c a/link']);
    const [turn] = await conversation.changes();
    expect(turn.files.map((f) => [f.path, f.action])).toEqual([
      ['a', 'created directory'],
      ['a/b', 'created directory'],
      ['a/b/c', 'created directory'],
      ['a/b/c/d.txt', 'created'],
      ['a/e.txt', 'created'],
      ['a/link', 'created'],
    ]);
    expect(turn.files.find((f) => f.path === 'a/link')!.diff).toBe('Symbolic link: nothing → a link to b/c');
    const undo = await conversation.reverse('undo');
    expect(undo.files.every((f) => f.outcome === 'restored'), JSON.stringify(undo.files)).toBe(true);
    expect(await filesIn()).toEqual(['keep.txt']);
    await conversation.reverse('redo');
    expect(await fs.readlink(fx.file('a/link'))).toBe('b/c');
    expect(await fs.readFile(fx.file('a/b/c/d.txt'), 'utf8')).toBe('x\n');
    await conversation.close();
  });

  it('counts what .gitignore ignores without capturing it, and never keeps a protected file', async () => {
    fx = await makeAgentFixture({ files: { '.gitignore': 'build/\n*.log\n' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    const [output] = await run(conversation, ['mkdir build && echo 1 > build/out.js && echo l > debug.log && echo t > tracked.txt && echo TOKEN=x > .env.local']);
    expect(output).toContain('[Changes: captured for review and undo: tracked.txt (created).]');
    expect(output).toContain('[Changes: not captured (cannot be undone in Mino): .env.local: a protected file, whose content Mino never keeps.]');
    expect(output).toContain('[Changes: 2 paths that .gitignore ignores changed and are not captured: build, debug.log.]');
    const [turn] = await conversation.changes();
    expect(turn.files.map((f) => f.path)).toEqual(['tracked.txt']);
    // Not all of it was captured: the turn says a command's changes were not.
    expect(turn.untrackedCalls).toBe(1);
    await conversation.reverse('undo');
    expect(await filesIn()).toEqual(['.env.local', '.gitignore', 'build', 'build/out.js', 'debug.log']);
    await conversation.close();
  });

  it('never touches a file the person changed after the command', async () => {
    fx = await makeAgentFixture();
    const conversation = await Conversation.start(fx.deps, fx.project);
    await run(conversation, ['echo hi > a.txt && echo there > b.txt']);
    await fs.writeFile(fx.file('a.txt'), 'mine now\n');
    const undo = await conversation.reverse('undo');
    expect(undo.files.map((f) => [f.path, f.outcome])).toEqual([
      ['b.txt', 'restored'],
      ['a.txt', 'skipped'],
    ]);
    expect(undo.files[1].diff).toContain('+mine now');
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('mine now\n');
    await conversation.close();
  });

  it('keeps its record current between commands: undo restores what the person wrote in between, not an older version', async () => {
    fx = await makeAgentFixture({ files: { 'f.txt': 'first\n' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    // The first sandboxed command makes the record of the project.
    await run(conversation, ['cat f.txt'], 'look');
    await fs.writeFile(fx.file('f.txt'), 'the person wrote this\n');
    await run(conversation, ['echo by the command > f.txt'], 'change it');
    const [turn, first] = await conversation.changes();
    expect(turn.files[0].diff).toContain('-the person wrote this');
    // Neither command's changes are said to be unknown: the first changed nothing, the second was captured.
    expect([turn.untrackedCalls, first]).toEqual([0, undefined]);
    await conversation.reverse('undo');
    expect(await fs.readFile(fx.file('f.txt'), 'utf8')).toBe('the person wrote this\n');
    await conversation.close();
  });

  it('says a command outside the sandbox is not captured, in its result and in the turn', async () => {
    fx = await makeAgentFixture();
    const conversation = await Conversation.start(fx.deps, fx.project);
    const [asked] = await run(conversation, [{ command: 'echo x > out.txt', sandbox: false }]);
    expect(asked).toContain('[Changes: not captured, so what this command changed cannot be reviewed or undone in Mino: the command ran outside the sandbox (as it asked).]');
    fx.settings.bashSandbox = false;
    const [off] = await run(conversation, ['echo y > off.txt']);
    expect(off).toContain('[Changes: not captured, so what this command changed cannot be reviewed or undone in Mino: the command ran outside the sandbox (the sandbox is turned off in Settings');
    const turns = await conversation.changes();
    expect(turns.map((t) => [t.files.length, t.untrackedCalls])).toEqual([
      [0, 1],
      [0, 1],
    ]);
    await conversation.close();
  });
});
