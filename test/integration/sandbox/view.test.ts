// What a sandboxed command sees of this machine, against the real bubblewrap:
// the system's programs, the project, and of each home only the folders the
// person allowed. Each case is one an attacker whose text reached the model
// reproduced against the earlier deny-list view (everything readable but a
// list of secrets).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { NODE_DIR, runSandboxed } from '../../support/sandbox/runSandboxed';

const SECRET = 'SECRET-allow-list';

const availability = await sandboxAvailability();
if (!availability.available) console.warn(`Sandbox view tests skipped: ${availability.reason}`);
const describeSandbox = availability.available && availability.kind === 'bwrap' ? describe : describe.skip;

const servers: net.Server[] = [];
/** Folders the test made (its temp root, a folder under /run), removed after each test. */
const made: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(made.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

/**
 * A home and a project under /var/tmp, not /tmp: the sandbox gives a command a
 * private /tmp, which would hide them whatever the view, and a person's home
 * is not under /tmp either.
 */
interface Temp {
  root: string;
  home: string;
  project: string;
  file(rel: string): string;
}

async function makeTemp(files: Record<string, string> = {}): Promise<Temp> {
  const root = await fs.realpath(await fs.mkdtemp('/var/tmp/mino-view-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await fs.mkdir(home, { mode: 0o700 });
  await fs.mkdir(project);
  const file = (rel: string) => path.join(project, rel);
  for (const [rel, content] of Object.entries(files)) await put(file(rel), content);
  made.push(root);
  return { root, home, project, file };
}


async function put(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

/** A Unix socket the test listens on, counting the connections that reach it. */
async function listenOn(socketPath: string): Promise<{ connections: () => number }> {
  await fs.mkdir(path.dirname(socketPath), { recursive: true });
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined); // The client may hang up first.
    socket.end('hello from the host\n');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { connections: () => connections };
}

/** A node one-liner that tries to connect to each path and prints `<path>: connected` or `<path>: <error code>`. */
function connectEach(paths: readonly string[]): string {
  const script =
    `for (const p of ${JSON.stringify(paths)}) require('net').connect(p)` +
    ".on('connect', function () { console.log(p + ': connected'); this.destroy(); })" +
    ".on('error', (e) => console.log(p + ': ' + e.code));";
  return `node -e ${shellQuote(script)}`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

describeSandbox('the sandbox shows an allow-list of this machine', () => {
  it('shows a home empty but for the allowed folders: the credentials of git, gh, docker, kubectl and codex are absent', async () => {
    const temp = await makeTemp();
    const home = temp.home;
    for (const file of ['.git-credentials', '.config/gh/hosts.yml', '.docker/config.json', '.kube/config', '.codex/auth.json', '.cargo/credentials.toml']) {
      await put(path.join(home, file), `${SECRET} in ${file}\n`);
    }
    await put(path.join(home, '.cargo/bin/tool'), 'the cargo tool\n');
    // A version manager kept elsewhere and linked into the home is reached by the name the person's PATH uses.
    await put(path.join(temp.root, 'nvm-real/nvm.sh'), 'the nvm script\n');
    await fs.symlink(path.join(temp.root, 'nvm-real'), path.join(home, '.nvm'));
    const command = [
      'cat ~/.git-credentials ~/.config/gh/hosts.yml ~/.docker/config.json ~/.kube/config ~/.codex/auth.json ~/.cargo/credentials.toml',
      'cat ~/.cargo/bin/tool ~/.nvm/nvm.sh',
      'echo "home: $(ls -A ~ | tr "\\n" " ")"',
      'echo x > ~/.cargo/bin/added',
      'echo y > ~/scratch && echo "scratch: $(cat ~/scratch)"',
    ].join('; ');
    // No readable list given: the defaults (~/.cargo/bin among them) apply.
    const { output } = await runSandboxed(command, { projectDir: temp.project, homeDirs: [home] });
    expect(output).not.toContain(SECRET);
    expect(output).toContain('the cargo tool');
    expect(output).toContain('the nvm script');
    expect(output).toContain('home: .cargo .nvm \n');
    expect(output).toMatch(/added: Read-only file system/);
    // The home is a scratch space of the command's own, thrown away with it.
    expect(output).toContain('scratch: y');
    await expect(fs.stat(path.join(home, 'scratch'))).rejects.toThrow(/ENOENT/);
    await expect(fs.stat(path.join(home, '.cargo/bin/added'))).rejects.toThrow(/ENOENT/);
  });

  it('hides /run, /var/run, the runtime directory, other homes, /mnt and /root, unsets the variables that point at them, and keeps the system read-only', async () => {
    const temp = await makeTemp();
    const runtimeDir = path.join(temp.root, 'run-user');
    await put(path.join(runtimeDir, 'bus'), 'a bus\n');
    const hidden = ['/run', '/var/run', runtimeDir, '/mnt', '/media', '/srv', '/root', '/home'];
    const command = [
      `for p in ${hidden.join(' ')}; do if [ -e "$p" ]; then echo "present: $p"; else echo "absent: $p"; fi; done`,
      'echo "vars: ${XDG_RUNTIME_DIR-unset} ${DBUS_SESSION_BUS_ADDRESS-unset} ${SSH_AUTH_SOCK-unset}"',
      'for p in /usr/bin/env /etc/passwd /proc/self/status /sys/kernel /dev/null /tmp /var/tmp; do [ -e "$p" ] && echo "there: $p"; done',
      'touch /usr/mino-outside /mino-outside',
    ].join('\n');
    const env = {
      PATH: '/usr/bin:/bin',
      HOME: temp.home,
      XDG_RUNTIME_DIR: runtimeDir,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${runtimeDir}/bus`,
      SSH_AUTH_SOCK: `${runtimeDir}/ssh-agent`,
    };
    const { output } = await runSandboxed(command, { projectDir: temp.project, homeDirs: [temp.home], env });
    for (const p of hidden) expect(output).toContain(`absent: ${p}\n`);
    expect(output).toContain('vars: unset unset unset');
    for (const p of ['/usr/bin/env', '/etc/passwd', '/proc/self/status', '/sys/kernel', '/dev/null', '/tmp', '/var/tmp']) expect(output).toContain(`there: ${p}\n`);
    // What is shown of the system, and the sandbox's own root, are read-only.
    expect(output).toContain("touch: cannot touch '/usr/mino-outside': Read-only file system");
    expect(output).toContain("touch: cannot touch '/mino-outside': Read-only file system");
  });

  it('cannot connect to a Unix socket in an allowed home folder or in a run directory, while socketpair (a child\'s IPC) still works', async () => {
    const temp = await makeTemp();
    const inAllowed = path.join(temp.home, '.cargo/bin/s.sock');
    const runtimeDir = path.join(temp.root, 'run-user');
    const inRuntime = path.join(runtimeDir, 'docker.sock');
    const sockets = [await listenOn(inAllowed), await listenOn(inRuntime)];
    const paths = [inAllowed, inRuntime];
    // Docker's own place, where a root Mino can make one; elsewhere the two above stand for it.
    const underRun = await fs.mkdtemp('/run/mino-test-').catch(() => null);
    if (underRun === null) console.warn('The /run socket case is skipped: this user cannot create a folder under /run');
    else {
      made.push(underRun);
      sockets.push(await listenOn(path.join(underRun, 'docker.sock')));
      paths.push(path.join(underRun, 'docker.sock'));
    }
    const ipc =
      "const c = require('child_process').spawn(process.execPath, ['-e', 'process.send(\"ipc works\")'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });" +
      "c.on('message', (m) => { console.log(m); c.disconnect(); });";
    const command = `ls -l ${shellQuote(inAllowed)}; ${connectEach(paths)}; node -e ${shellQuote(ipc)}`;
    const env = { PATH: `${NODE_DIR}:/usr/bin:/bin`, HOME: temp.home, XDG_RUNTIME_DIR: runtimeDir };
    const { output } = await runSandboxed(command, {
      projectDir: temp.project,
      homeDirs: [temp.home],
      readableHome: [path.join(temp.home, '.cargo/bin'), NODE_DIR],
      env,
    });
    // The socket in the allowed folder is there to see, and still refused.
    expect(output).toMatch(/^s.*s\.sock$/m);
    for (const p of paths) expect(output).toMatch(new RegExp(`^${p}: (EPERM|EACCES|ENOENT)$`, 'm'));
    expect(output).not.toContain('connected');
    expect(sockets.map((socket) => socket.connections())).toEqual(sockets.map(() => 0));
    expect(output).toContain('ipc works');
  });

  it('keeps the project writable, .git read-only and protected files masked, and runs node, bash and git', async () => {
    const temp = await makeTemp({ '.env': `TOKEN=${SECRET}\n`, 'a.txt': 'one\n' });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: temp.project });
    git('init', '-q');
    git('add', 'a.txt');
    git('commit', '-qm', 'first');
    const command = [
      'echo z > inside.txt',
      'echo y >> .git/config',
      'cat .env',
      'git log --oneline',
      'node -e "console.log(\'node runs\')"',
      'bash -c "echo bash runs"',
    ].join('; ');
    const { output } = await runSandboxed(command, { projectDir: temp.project, homeDirs: [temp.home], readableHome: [NODE_DIR] });
    expect(await fs.readFile(temp.file('inside.txt'), 'utf8')).toBe('z\n');
    expect(output).toMatch(/config: Read-only file system/);
    expect(output).not.toContain(SECRET);
    expect(output).toContain('first');
    expect(output).toContain('node runs');
    expect(output).toContain('bash runs');
  });

  it('shows a project inside the home whole and writable while the rest of that home stays absent', async () => {
    const temp = await makeTemp();
    const project = path.join(temp.home, 'code/app');
    await put(path.join(project, 'main.ts'), 'export {};\n');
    await put(path.join(project, 'tools/run.sh'), 'echo tool\n');
    await put(path.join(temp.home, '.git-credentials'), `${SECRET}\n`);
    await put(path.join(temp.home, 'code/other/notes.txt'), `${SECRET} next door\n`);
    const command = 'cat main.ts ~/.git-credentials ../other/notes.txt; echo new > tools/added && echo "tools: written"';
    // A readable folder inside the project is simply part of the writable project.
    const { output } = await runSandboxed(command, { projectDir: project, homeDirs: [temp.home], readableHome: [path.join(project, 'tools')] });
    expect(output).toContain('export {};');
    expect(output).not.toContain(SECRET);
    expect(output).toContain('tools: written');
    expect(await fs.readFile(path.join(project, 'tools/added'), 'utf8')).toBe('new\n');
  });

  it('cannot rename a folder that holds a nested repository, so its read-only .git cannot be carried away', async () => {
    const temp = await makeTemp({ 'sub/.git/config': '[core]\n', 'sub/deeper/lib/.git/HEAD': 'ref: x\n', 'sub/.env': `${SECRET}\n`, 'sub/file.txt': 'x\n' });
    const command = 'mv sub sub_old; mv sub/deeper sub/moved; echo y >> sub/.git/config; cat sub/.env; echo changed > sub/file.txt';
    const { output } = await runSandboxed(command, { projectDir: temp.project, homeDirs: [temp.home] });
    expect(output).toMatch(/mv: cannot move 'sub' to 'sub_old': Device or resource busy/);
    // The folder bound onto itself is still the writable project, its .git still read-only, its secrets still masked.
    expect(output).toMatch(/sub\/\.git\/config: Read-only file system/);
    expect(output).not.toContain(SECRET);
    expect(await fs.readFile(temp.file('sub/file.txt'), 'utf8')).toBe('changed\n');
    expect(output).toMatch(/mv: cannot move 'sub\/deeper' to 'sub\/moved': Device or resource busy/);
    expect(await fs.readFile(temp.file('sub/.git/config'), 'utf8')).toBe('[core]\n');
    await expect(fs.stat(temp.file('sub_old'))).rejects.toThrow(/ENOENT/);
    await expect(fs.stat(temp.file('sub/moved'))).rejects.toThrow(/ENOENT/);
  });
});
