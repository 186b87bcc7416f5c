// The two back ends turn one plan into their own syntax. bwrap runs in the
// integration tests (view.test.ts among them); Seatbelt cannot run here, so
// its profile text is checked.
import { describe, expect, it } from 'vitest';
import { bwrapArguments } from '../../../src/main/core/sandbox/bwrapArgs';
import type { SandboxPlan } from '../../../src/main/core/sandbox/plan';
import type { SystemEntry } from '../../../src/main/core/sandbox/systemView';
import { quote, seatbeltProfile } from '../../../src/main/core/sandbox/seatbeltProfile';

const plan: SandboxPlan = {
  projectDir: '/Users/ann/code/app',
  homes: ['/Users/ann'],
  readable: ['/Users/ann/.cargo/bin', '/Users/ann/.rustup', '/opt/tools'],
  readableLinks: [{ path: '/Users/ann/.nvm', target: '/opt/nvm' }],
  readOnly: ['/Users/ann/code/app/.git', '/Users/ann/code/app/vendor/lib/.git'],
  maskedFiles: ['/Users/ann/code/app/.env', '/Users/ann/code/app/config/prod/server.key'],
  maskedDirs: ['/Users/ann/code/app/tools/.ssh'],
};

describe('bwrap arguments', () => {
  const system: SystemEntry[] = [
    { kind: 'directory', path: '/usr' },
    { kind: 'link', path: '/bin', target: 'usr/bin' },
    { kind: 'directory', path: '/etc' },
  ];
  const args = bwrapArguments(plan, ['bash', '-c', 'ls'], { system, seccompFd: 3 });
  const at = (...flag: string[]) => args.findIndex((_, i) => flag.every((part, j) => args[i + j] === part));

  it('unshares every namespace, dies with its parent and starts a new terminal session', () => {
    expect(args.slice(0, 3)).toEqual(['--unshare-all', '--die-with-parent', '--new-session']);
  });

  it('shows the system read-only, recreating a link as a link, and nothing of / as a whole', () => {
    expect(at('--ro-bind', '/usr', '/usr')).toBeGreaterThan(0);
    expect(at('--symlink', 'usr/bin', '/bin')).toBeGreaterThan(0);
    expect(at('--ro-bind', '/sys', '/sys')).toBeGreaterThan(0);
    expect(at('--ro-bind', '/', '/')).toBe(-1);
    expect(args.filter((arg) => arg === '/run' || arg === '/var' || arg === '/home')).toEqual([]);
  });

  it('orders the mounts: system, temp, the empty home, its allowed folders, the project, the folders holding .git, .git, the masks, then the root read-only', () => {
    const order = [
      at('--ro-bind', '/usr', '/usr'),
      at('--dev', '/dev'),
      at('--proc', '/proc'),
      at('--tmpfs', '/tmp'),
      at('--tmpfs', '/var/tmp'),
      at('--tmpfs', '/Users/ann'),
      at('--ro-bind', '/Users/ann/.cargo/bin', '/Users/ann/.cargo/bin'),
      at('--ro-bind', '/opt/tools', '/opt/tools'),
      at('--symlink', '/opt/nvm', '/Users/ann/.nvm'),
      at('--bind', plan.projectDir, plan.projectDir),
      at('--bind', '/Users/ann/code/app/vendor', '/Users/ann/code/app/vendor'),
      at('--bind', '/Users/ann/code/app/vendor/lib', '/Users/ann/code/app/vendor/lib'),
      at('--ro-bind', '/Users/ann/code/app/.git', '/Users/ann/code/app/.git'),
      at('--ro-bind', '/Users/ann/code/app/vendor/lib/.git', '/Users/ann/code/app/vendor/lib/.git'),
      at('--ro-bind', '/dev/null', '/Users/ann/code/app/.env'),
      at('--tmpfs', '/Users/ann/code/app/tools/.ssh', '--remount-ro', '/Users/ann/code/app/tools/.ssh'),
      at('--remount-ro', '/'),
      at('--seccomp', '3'),
    ];
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('binds only folders that hold a .git onto themselves, not the project or the folders of masked files', () => {
    const selfBinds = args.flatMap((arg, i) => (arg === '--bind' && args[i + 1] === args[i + 2] ? [args[i + 1]] : []));
    expect(selfBinds).toEqual([plan.projectDir, '/Users/ann/code/app/vendor', '/Users/ann/code/app/vendor/lib']);
  });

  it('unsets the variables that point at what is hidden', () => {
    for (const name of ['XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS', 'SSH_AUTH_SOCK']) expect(at('--unsetenv', name)).toBeGreaterThan(0);
  });

  it('runs the command last, in the project, with a private TMPDIR', () => {
    expect(args.slice(-9)).toEqual(['--setenv', 'TMPDIR', '/tmp', '--chdir', plan.projectDir, '--', 'bash', '-c', 'ls']);
  });
});

describe('the Seatbelt profile', () => {
  const profile = seatbeltProfile(plan, '/private/var/folders/xy/T/mino-command-1');

  it('is the exact text for this plan', () => {
    expect(profile).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny network*)',
        '(deny process-info*)',
        '(allow process-info* (target same-sandbox))',
        '(deny signal)',
        '(allow signal (target same-sandbox))',
        '(deny file-read* (subpath "/Users/ann"))',
        '(allow file-read-metadata (literal "/Users/ann") (literal "/Users/ann/.cargo") (literal "/Users/ann/code"))',
        '(allow file-read* (subpath "/Users/ann/.cargo/bin") (subpath "/Users/ann/.rustup") (subpath "/Users/ann/code/app") (literal "/Users/ann/.nvm"))',
        '(deny file-write*)',
        '(allow file-write* (subpath "/Users/ann/code/app") (subpath "/private/var/folders/xy/T/mino-command-1") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (regex #"^/dev/fd/"))',
        '(deny file-write* (subpath "/Users/ann/code/app/.git") (subpath "/Users/ann/code/app/vendor/lib/.git"))',
        '(deny file-read-data file-write* (literal "/Users/ann/code/app/.env") (literal "/Users/ann/code/app/config/prod/server.key") (subpath "/Users/ann/code/app/tools/.ssh"))',
        '(deny file-write-unlink (literal "/Users/ann/code/app/config") (literal "/Users/ann/code/app/config/prod") (literal "/Users/ann/code/app/tools") (literal "/Users/ann/code/app/vendor") (literal "/Users/ann/code/app/vendor/lib"))',
        '',
      ].join('\n'),
    );
  });

  it('refuses every socket, Unix sockets included: (deny network*) covers connecting to a socket file', () => {
    expect(profile.split('\n')).toContain('(deny network*)');
    expect(profile).not.toMatch(/\(allow network/);
  });

  it('puts each exception after the broad rule it narrows, since the last matching rule wins', () => {
    const lines = profile.split('\n');
    const index = (prefix: string) => lines.findIndex((line) => line.startsWith(prefix));
    expect(index('(deny file-read* (subpath "/Users/ann"))')).toBeLessThan(index('(allow file-read-metadata'));
    expect(index('(deny file-read* (subpath "/Users/ann"))')).toBeLessThan(index('(allow file-read*'));
    // A masked file inside the project stays unreadable although the project is allowed back.
    expect(index('(allow file-read*')).toBeLessThan(index('(deny file-read-data file-write*'));
    expect(index('(deny file-write*)')).toBeLessThan(index('(allow file-write*'));
    expect(index('(allow file-write*')).toBeLessThan(index('(deny file-write* (subpath "/Users/ann/code/app/.git")'));
  });

  it('allows a temp directory or project back only where a home would hide it', () => {
    const outside = seatbeltProfile({ ...plan, projectDir: '/Volumes/work/app', readable: ['/opt/tools'], readableLinks: [] }, '/t');
    expect(outside).toContain('(deny file-read* (subpath "/Users/ann"))');
    expect(outside).not.toContain('(allow file-read*');
    expect(outside).not.toContain('(allow file-read-metadata');
  });

  it('has no home, network, .git or mask rules to spare when the plan has none', () => {
    const bare = seatbeltProfile({ projectDir: '/p', homes: [], readable: [], readableLinks: [], readOnly: [], maskedFiles: [], maskedDirs: [] }, '/t');
    expect(bare).toContain('(deny network*)');
    expect(bare).not.toContain('file-read');
    expect(bare).not.toContain('file-write-unlink');
  });

  it('escapes quotes and backslashes in paths, and refuses a control character that could end a rule', () => {
    expect(quote('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    expect(() => quote('/a\n(allow default)')).toThrow(/control character/);
    expect(() => seatbeltProfile({ ...plan, maskedFiles: ['/p/.env\n'] }, '/t')).toThrow(/control character/);
    expect(() => seatbeltProfile({ ...plan, readable: ['/Users/ann/.cargo\n'] }, '/t')).toThrow(/control character/);
  });
});
