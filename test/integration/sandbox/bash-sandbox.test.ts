// bash in bypass mode with the sandbox: real bubblewrap, real processes, a
// real loopback server. Each case is something today's unsandboxed bash lets
// through; the model service is the loopback mock, everything else is real.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { ensureMinoHome } from '../../../src/main/core/config/minoHome';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { eventRecorder, field, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const SECRET = 'SECRET-a81c-sandbox';
const API_KEY = 'sk-live-never-inside-the-sandbox';

const availability = await sandboxAvailability();
// CI installs bubblewrap; elsewhere the reason is printed with the skip.
const describeSandbox = availability.available ? describe : describe.skip;
if (!availability.available) console.warn(`Sandbox tests skipped: ${availability.reason}`);

let fx: AgentFixture;
afterEach(async () => fx?.cleanup());

/** Runs one bash call in bypass mode through the real loop and returns its result as the model saw it. */
async function bypassBash(args: { command: string; sandbox?: boolean }, approve = false) {
  fx.server.enqueue({ calls: [{ name: 'bash', arguments: args, call_id: 'b1' }] }, { text: 'done' });
  const conversation = await Conversation.start(fx.deps, fx.project);
  const approver = recordingApprover(() => approve);
  const events = eventRecorder();
  try {
    await conversation.ask('run it', { mode: 'bypass', approver, onEvent: events.onEvent });
  } finally {
    await conversation.close();
  }
  const [result] = outputsIn(fx.server.requests[1]!.body);
  return { result: result!, approver, events };
}

describeSandbox('bash in bypass mode runs in the sandbox', () => {
  beforeAll(() => {
    // Mino's own environment holds the model service key, as it does when a person sets OPENAI_API_KEY.
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = API_KEY;
    return () => {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
    };
  });

  it('prints nothing secret for cat .env or a protected file in a subdirectory, and the confirmation says it is sandboxed', async () => {
    fx = await makeAgentFixture({
      files: { '.env': `TOKEN=${SECRET}\n`, 'config/deploy/server.key': `${SECRET}-key\n`, 'deep/a/b/.env.local': `${SECRET}-local\n`, 'readme.txt': 'hello\n' },
    });
    const { result, events } = await bypassBash({ command: 'cat .env config/deploy/server.key deep/a/b/.env.local readme.txt' });
    expect(result.output).not.toContain(SECRET);
    expect(result.output).toContain('hello');
    const [shown] = events.of('tool_confirmation');
    expect(shown!.asked).toBe(false);
    expect(field(shown!.confirmation, 'Sandbox')).toMatch(/^on /);
    expect(shown!.confirmation.warning).toMatch(/^Runs in the sandbox/);
    // The file itself is untouched.
    expect(await fs.readFile(fx.file('.env'), 'utf8')).toBe(`TOKEN=${SECRET}\n`);
  });

  it('hides ~/.mino and the project\'s .ssh directory', async () => {
    fx = await makeAgentFixture({ files: { '.ssh/id_work': `${SECRET}-ssh\n` } });
    await fs.writeFile(path.join((await ensureMinoHome(fx.home)).root, 'secrets.json'), `{"key":"${SECRET}-mino"}`);
    const { result } = await bypassBash({ command: 'cat "$HOME/.mino/secrets.json"; ls -A "$HOME/.mino"; cat .ssh/id_work; echo end' });
    expect(result.output).not.toContain(SECRET);
    expect(result.output).toMatch(/No such file or directory/);
    expect(result.output).toContain('end');
  });

  it('cannot write ../outside.txt or .git/config, but can write inside.txt', async () => {
    fx = await makeAgentFixture({ files: { '.git/config': '[core]\n' } });
    const { result } = await bypassBash({ command: 'echo x > ../outside.txt; echo y >> .git/config; echo z > inside.txt' });
    await expect(fs.stat(path.join(fx.project, '..', 'outside.txt'))).rejects.toThrow(/ENOENT/);
    expect(await fs.readFile(fx.file('.git/config'), 'utf8')).toBe('[core]\n');
    expect(await fs.readFile(fx.file('inside.txt'), 'utf8')).toBe('z\n');
    expect(result.output).toMatch(/Read-only file system/);
  });

  it('cannot connect to a TCP server on 127.0.0.1, and the result says the sandbox blocked the network', async () => {
    fx = await makeAgentFixture();
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const { result } = await bypassBash({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3` });
      expect(result.status).toBe('failed');
      expect(result.output).not.toContain('hello from the host');
      expect(connections).toBe(0);
      expect(result.output).toContain('"sandbox": false');
      expect(result.output).toContain('Do not try to work around the sandbox.');
    } finally {
      server.close();
    }
  });

  it('leaves no API key in any /proc/*/environ the command can read', async () => {
    fx = await makeAgentFixture();
    const { result } = await bypassBash({ command: "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\"; done; tr '\\0' '\\n' < /proc/$PPID/environ; ls /proc | grep -c '^[0-9]'" });
    expect(result.output).not.toContain(API_KEY);
    expect(result.output).toContain('PATH=');
    // Only the command's own processes are visible: bwrap's init, bash, and the pipeline.
    const visible = Number(result.output.split('\n').find((line) => /^\d+$/.test(line)));
    expect(visible).toBeLessThan(6);
  });

  it('ends a set -m background child and a setsid child when the call returns', async () => {
    fx = await makeAgentFixture();
    const command = [
      'set -m',
      '(while :; do echo . >> beat-setm; sleep 0.05; done) &',
      "setsid sh -c 'while :; do echo . >> beat-setsid; sleep 0.05; done' &",
      'sleep 0.5',
      'echo started',
    ].join('\n');
    const { result } = await bypassBash({ command });
    expect(result.output).toContain('started');
    const sizes = async () => Promise.all(['beat-setm', 'beat-setsid'].map(async (name) => (await fs.stat(fx.file(name))).size));
    const before = await sizes();
    expect(before.every((size) => size > 0)).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    expect(await sizes()).toEqual(before);
  });

  it('runs git status, diff and log in a repository project', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'one\n' } });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: fx.project });
    git('init', '-q');
    git('add', 'a.txt');
    git('commit', '-qm', 'first');
    await fs.writeFile(fx.file('a.txt'), 'two\n');
    const { result } = await bypassBash({ command: 'git status --short && git diff --stat && git log --oneline' });
    expect(result.status).toBe('completed');
    expect(result.output).toContain('M a.txt');
    expect(result.output).toContain('first');
  });
});

describe('a bash call that asks to leave the sandbox', () => {
  it('asks in bypass mode, says it runs with full rights, and runs nothing when refused', async () => {
    fx = await makeAgentFixture();
    const { result, approver } = await bypassBash({ command: 'touch ran-outside', sandbox: false });
    expect(approver.asks).toHaveLength(1);
    const confirmation = approver.asks[0]!.confirmation;
    // Where the machine cannot give the command its own process namespace, a sentence saying so follows.
    expect(confirmation.warning).toMatch(/^Runs OUTSIDE the sandbox, with your full rights: it can read your secrets, use the network and change any file you can\./);
    expect(field(confirmation, 'Sandbox')).toBe('off: the model asked to run this command outside the sandbox');
    expect(result.status).toBe('denied');
    await expect(fs.stat(fx.file('ran-outside'))).rejects.toThrow(/ENOENT/);
  });

  it('runs outside the sandbox once approved', async () => {
    fx = await makeAgentFixture();
    const { result } = await bypassBash({ command: 'echo x > ../outside.txt && echo wrote', sandbox: false }, true);
    expect(result.status).toBe('completed');
    expect(await fs.readFile(path.join(fx.project, '..', 'outside.txt'), 'utf8')).toBe('x\n');
  });
});
