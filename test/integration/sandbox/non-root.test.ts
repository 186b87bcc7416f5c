// The same sandbox for a person who is not root: bubblewrap then needs
// unprivileged user namespaces. Run as `nobody` through setpriv where this
// machine allows it (CI runs as root); skipped, with the reason, elsewhere.
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tsxArgs } from '../../support/tsxChild';

const CHILD = path.resolve(__dirname, '../../support/sandbox/runBashChild.ts');
const SECRET = 'SECRET-non-root';
const API_KEY = 'sk-non-root-never-inside';

function whyNot(): string | null {
  if (process.getuid?.() !== 0) return 'the test is not running as root, so it cannot become another user';
  try {
    execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'bwrap', '--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true'], { stdio: 'ignore' });
  } catch {
    return 'setpriv or unprivileged user namespaces are not available here';
  }
  try {
    // The other user runs this checkout's code: a clone inside a private (0700) folder is out of its reach.
    execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', CHILD], { stdio: 'ignore' });
    return null;
  } catch {
    return `user nobody cannot read ${CHILD} (a folder above the checkout is private)`;
  }
}
const reason = whyNot();
if (reason) console.warn(`Non-root sandbox test skipped: ${reason}`);

let root: string;
afterEach(async () => root && fs.rm(root, { recursive: true, force: true }));

describe.skipIf(reason !== null)('the sandbox as a user who is not root', () => {
  it('hides .env and Mino\'s environment, and refuses writes outside the project', async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-nonroot-')));
    const project = path.join(root, 'project');
    const home = path.join(root, 'home');
    await fs.mkdir(project);
    await fs.mkdir(home);
    await fs.writeFile(path.join(project, '.env'), `TOKEN=${SECRET}\n`);
    await fs.chmod(root, 0o755);
    await fs.chown(project, 65534, 65534);
    await fs.chown(path.join(project, '.env'), 65534, 65534);
    // Outside the project the system is read-only, and the project's parent (here in the private /tmp) is the command's own scratch space.
    const command = "cat .env; tr '\\0' '\\n' < /proc/$PPID/environ; echo x > ../outside.txt; echo x > /etc/mino-outside.txt; id -u; echo ok > inside.txt";
    const { stdout } = await promisify(execFile)('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...tsxArgs(CHILD, project, home, command)], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, OPENAI_API_KEY: API_KEY },
    });
    const result = JSON.parse(stdout) as { sandbox: string; status: string; output: string };
    expect(result.sandbox).toBe('on (Linux bubblewrap)');
    expect(result.output).not.toContain(SECRET);
    expect(result.output).not.toContain(API_KEY);
    expect(result.output).toMatch(/mino-outside\.txt: (Read-only file system|Permission denied)/);
    await expect(fs.stat(path.join(root, 'outside.txt'))).rejects.toThrow(/ENOENT/);
    await expect(fs.stat('/etc/mino-outside.txt')).rejects.toThrow(/ENOENT/);
    expect(await fs.readFile(path.join(project, 'inside.txt'), 'utf8')).toBe('ok\n');
  });
});

describe.skipIf(reason !== null)('a folder the walk for protected files cannot read, as a user who is not root', () => {
  it('is hidden whole: chmod 000 in one call and chmod 755 in the next does not uncover the .env inside it', async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-nonroot-')));
    const project = path.join(root, 'project');
    const home = path.join(root, 'home');
    await fs.mkdir(path.join(project, 'config'), { recursive: true });
    await fs.mkdir(home);
    await fs.writeFile(path.join(project, 'config', '.env.local'), `TOKEN=${SECRET}\n`);
    await fs.chmod(root, 0o755);
    for (const entry of ['', 'config', 'config/.env.local']) await fs.chown(path.join(project, entry), 65534, 65534);
    const asNobody = async (command: string) => {
      const { stdout } = await promisify(execFile)('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...tsxArgs(CHILD, project, home, command)], {
        cwd: project,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
      });
      return JSON.parse(stdout) as { sandbox: string; status: string; output: string };
    };
    expect((await asNobody('chmod 000 config && echo locked')).output).toContain('locked');
    // Now the walk (as nobody) cannot list config: what it cannot see into is hidden, not skipped.
    const second = await asNobody('chmod 755 config; cat config/.env.local; ls -A config; echo end');
    expect(second.sandbox).toBe('on (Linux bubblewrap)');
    expect(second.output).not.toContain(SECRET);
    expect(second.output).toContain('end');
    // The folder itself is untouched: still locked, its secret still there for the person.
    expect((await fs.stat(path.join(project, 'config'))).mode & 0o777).toBe(0);
    await fs.chmod(path.join(project, 'config'), 0o755);
    expect(await fs.readFile(path.join(project, 'config', '.env.local'), 'utf8')).toBe(`TOKEN=${SECRET}\n`);
  });

  it('is hidden whole when it can be entered but not listed (chmod 111)', async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-nonroot-')));
    const project = path.join(root, 'project');
    const home = path.join(root, 'home');
    await fs.mkdir(path.join(project, 'config'), { recursive: true });
    await fs.mkdir(home);
    await fs.writeFile(path.join(project, 'config', '.env'), `TOKEN=${SECRET}\n`);
    await fs.chmod(root, 0o755);
    await fs.chmod(path.join(project, 'config'), 0o111);
    await fs.chmod(path.join(project, 'config', '.env'), 0o644);
    await fs.chown(project, 65534, 65534);
    const { stdout } = await promisify(execFile)('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...tsxArgs(CHILD, project, home, 'cat config/.env; echo end')], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    });
    const result = JSON.parse(stdout) as { output: string };
    expect(result.output).not.toContain(SECRET);
    expect(result.output).toContain('end');
  });
});
