// The two back ends turn one plan into their own syntax. bwrap runs in the
// integration tests; Seatbelt cannot run here, so its profile text is checked.
import { describe, expect, it } from 'vitest';
import { bwrapArguments } from '../../../src/main/core/sandbox/bwrapArgs';
import type { SandboxPlan } from '../../../src/main/core/sandbox/plan';
import { quote, seatbeltProfile } from '../../../src/main/core/sandbox/seatbeltProfile';

const plan: SandboxPlan = {
  projectDir: '/Users/ann/code/app',
  readOnly: ['/Users/ann/code/app/.git'],
  maskedFiles: ['/Users/ann/code/app/.env', '/Users/ann/code/app/config/prod/server.key', '/Users/ann/.netrc'],
  maskedDirs: ['/Users/ann/.mino', '/Users/ann/.ssh'],
};

describe('bwrap arguments', () => {
  const args = bwrapArguments(plan, ['bash', '-c', 'ls'], { runtimeDir: '/run/user/501', sockets: ['/run/docker.sock'] });
  const at = (...flag: string[]) => args.findIndex((_, i) => flag.every((part, j) => args[i + j] === part));

  it('unshares every namespace, dies with its parent and starts a new terminal session', () => {
    expect(args.slice(0, 3)).toEqual(['--unshare-all', '--die-with-parent', '--new-session']);
  });

  it('makes the file system read-only, then the project writable, then .git read-only, then the masks', () => {
    const order = [
      at('--ro-bind', '/', '/'),
      at('--tmpfs', '/tmp'),
      at('--bind', plan.projectDir, plan.projectDir),
      at('--ro-bind', '/Users/ann/code/app/.git', '/Users/ann/code/app/.git'),
      at('--ro-bind', '/dev/null', '/Users/ann/code/app/.env'),
      at('--tmpfs', '/Users/ann/.ssh', '--remount-ro', '/Users/ann/.ssh'),
    ];
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('masks every file with /dev/null and every directory with a read-only tmpfs, the runtime directory and sockets too', () => {
    for (const file of plan.maskedFiles) expect(at('--ro-bind', '/dev/null', file)).toBeGreaterThan(0);
    for (const dir of [...plan.maskedDirs, '/run/user/501']) expect(at('--tmpfs', dir, '--remount-ro', dir)).toBeGreaterThan(0);
    expect(at('--ro-bind', '/dev/null', '/run/docker.sock')).toBeGreaterThan(0);
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
        '(deny file-write*)',
        '(allow file-write* (subpath "/Users/ann/code/app") (subpath "/private/var/folders/xy/T/mino-command-1") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (regex #"^/dev/fd/"))',
        '(deny file-write* (subpath "/Users/ann/code/app/.git"))',
        '(deny file-read-data file-write* (literal "/Users/ann/code/app/.env") (literal "/Users/ann/code/app/config/prod/server.key") (literal "/Users/ann/.netrc") (subpath "/Users/ann/.mino") (subpath "/Users/ann/.ssh"))',
        '(deny file-write-unlink (literal "/Users/ann/code/app/config") (literal "/Users/ann/code/app/config/prod"))',
        '',
      ].join('\n'),
    );
  });

  it('puts each exception after the broad rule it narrows, since the last matching rule wins', () => {
    const lines = profile.split('\n');
    const index = (prefix: string) => lines.findIndex((line) => line.startsWith(prefix));
    expect(index('(deny file-write*)')).toBeLessThan(index('(allow file-write*'));
    expect(index('(allow file-write*')).toBeLessThan(index('(deny file-write* (subpath "/Users/ann/code/app/.git"))'));
    expect(index('(allow file-write*')).toBeLessThan(index('(deny file-read-data file-write*'));
  });

  it('has no network, .git or mask rules to spare when the plan has none', () => {
    const bare = seatbeltProfile({ projectDir: '/p', readOnly: [], maskedFiles: [], maskedDirs: [] }, '/t');
    expect(bare).toContain('(deny network*)');
    expect(bare).not.toContain('file-read-data');
    expect(bare).not.toContain('file-write-unlink');
  });

  it('escapes quotes and backslashes in paths, and refuses a control character that could end a rule', () => {
    expect(quote('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    expect(() => quote('/a\n(allow default)')).toThrow(/control character/);
    expect(() => seatbeltProfile({ ...plan, maskedFiles: ['/p/.env\n'] }, '/t')).toThrow(/control character/);
  });
});
