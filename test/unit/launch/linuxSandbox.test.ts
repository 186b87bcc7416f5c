// The pre-launch check of Chromium's sandbox on Linux: what it reads from a
// machine (a fake /proc and /etc/apparmor.d in a temp folder) and what it tells
// the person for each way the sandbox can be blocked.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  apparmorProfile,
  apparmorProfileAllows,
  diagnoseChromiumSandbox,
  readSandboxFacts,
  setuidHelperReady,
  type SandboxFacts,
} from '../../../scripts/lib/linuxSandbox.mjs';

const binary = '/home/ada/mino/node_modules/electron/dist/electron';
const ubuntu: SandboxFacts = {
  uid: 1000,
  apparmorRestrictUserns: '1',
  unprivilegedUsernsClone: null,
  maxUserNamespaces: '63000',
  profileAllowsUserns: false,
  chromeSandbox: { uid: 1000, mode: 0o100755 },
};

describe('diagnoseChromiumSandbox', () => {
  it('stops a default Ubuntu 24.04 with the AppArmor profile first, the setuid helper second and --no-sandbox last', () => {
    const problem = diagnoseChromiumSandbox(ubuntu, { electronBinary: binary });
    expect(problem?.problem).toBe('apparmor');
    const text = problem!.lines.join('\n');
    expect(text).toContain('kernel.apparmor_restrict_unprivileged_userns = 1');
    expect(text).toContain('FATAL:setuid_sandbox_host');
    const profile = text.indexOf('npm run --silent apparmor-profile | sudo tee /etc/apparmor.d/mino-electron');
    const reload = text.indexOf('sudo apparmor_parser -r /etc/apparmor.d/mino-electron');
    const helper = text.indexOf('sudo chmod 4755 /home/ada/mino/node_modules/electron/dist/chrome-sandbox');
    const bwrap = text.indexOf('npm run --silent apparmor-profile -- bwrap');
    const last = text.indexOf('--no-sandbox');
    expect([profile, reload, helper, bwrap, last].every((at) => at >= 0)).toBe(true);
    expect(profile).toBeLessThan(reload);
    expect(reload).toBeLessThan(helper);
    expect(helper).toBeLessThan(last);
    // The cost of the last resort is said with it.
    expect(text.slice(last)).toMatch(/all of your user's rights/);
  });

  it('lets Chromium start when a profile grants user namespaces to the binary', () => {
    expect(diagnoseChromiumSandbox({ ...ubuntu, profileAllowsUserns: true }, { electronBinary: binary })).toBeNull();
  });

  it('lets Chromium start when the setuid helper is root-owned with mode 4755, whatever blocks namespaces', () => {
    expect(diagnoseChromiumSandbox({ ...ubuntu, chromeSandbox: { uid: 0, mode: 0o104755 } }, { electronBinary: binary })).toBeNull();
    expect(diagnoseChromiumSandbox({ ...ubuntu, unprivilegedUsernsClone: '0', chromeSandbox: { uid: 0, mode: 0o104755 } }, { electronBinary: binary })).toBeNull();
  });

  it('lets Chromium start where nothing restricts user namespaces', () => {
    expect(diagnoseChromiumSandbox({ ...ubuntu, apparmorRestrictUserns: '0' }, { electronBinary: binary })).toBeNull();
    expect(diagnoseChromiumSandbox({ ...ubuntu, apparmorRestrictUserns: null }, { electronBinary: binary })).toBeNull();
  });

  it.each([
    ['kernel.unprivileged_userns_clone = 0', { unprivilegedUsernsClone: '0' }],
    ['user.max_user_namespaces = 0', { maxUserNamespaces: '0' }],
  ])('names the kernel switch (%s) and the setuid helper where the kernel forbids namespaces', (setting, change) => {
    const problem = diagnoseChromiumSandbox({ ...ubuntu, apparmorRestrictUserns: '0', ...change }, { electronBinary: binary });
    expect(problem?.problem).toBe('sysctl');
    const text = problem!.lines.join('\n');
    expect(text).toContain(setting);
    expect(text).toContain('sudo chown root:root /home/ada/mino/node_modules/electron/dist/chrome-sandbox');
    expect(text).not.toContain('apparmor_parser');
  });

  it('tells root to start Mino as its own user, on any machine', () => {
    const problem = diagnoseChromiumSandbox({ ...ubuntu, uid: 0, apparmorRestrictUserns: '0' }, { electronBinary: binary });
    expect(problem?.problem).toBe('root');
    expect(problem!.lines.join('\n')).toMatch(/as your own user[\s\S]*--no-sandbox[\s\S]*rights/);
  });

  it('quotes a helper path with spaces for the shell', () => {
    const problem = diagnoseChromiumSandbox(ubuntu, { electronBinary: '/home/ada/my projects/mino/node_modules/electron/dist/electron' });
    expect(problem!.lines.join('\n')).toContain("sudo chmod 4755 '/home/ada/my projects/mino/node_modules/electron/dist/chrome-sandbox'");
  });

  it('counts the setuid helper as ready only when root owns it and the setuid bit is set', () => {
    expect(setuidHelperReady({ uid: 0, mode: 0o104755 })).toBe(true);
    expect(setuidHelperReady({ uid: 0, mode: 0o100755 })).toBe(false);
    expect(setuidHelperReady({ uid: 1000, mode: 0o104755 })).toBe(false);
    expect(setuidHelperReady(null)).toBe(false);
  });
});

describe('reading the machine', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-sandbox-facts-'));
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('reads the switches from /proc, the helper from beside the binary and the profiles from the AppArmor folder', async () => {
    const proc = path.join(root, 'proc');
    await fs.mkdir(path.join(proc, 'sys/kernel'), { recursive: true });
    await fs.mkdir(path.join(proc, 'sys/user'), { recursive: true });
    await fs.writeFile(path.join(proc, 'sys/kernel/apparmor_restrict_unprivileged_userns'), '1\n');
    await fs.writeFile(path.join(proc, 'sys/user/max_user_namespaces'), '63000\n');
    const dist = path.join(root, 'mino/node_modules/electron/dist');
    await fs.mkdir(dist, { recursive: true });
    await fs.writeFile(path.join(dist, 'electron'), '');
    await fs.writeFile(path.join(dist, 'chrome-sandbox'), '');
    await fs.chmod(path.join(dist, 'chrome-sandbox'), 0o755);
    const apparmor = path.join(root, 'apparmor.d');
    await fs.mkdir(apparmor);
    const electron = path.join(dist, 'electron');

    const before = readSandboxFacts(electron, { proc, apparmorDir: apparmor });
    expect(before).toMatchObject({
      apparmorRestrictUserns: '1',
      unprivilegedUsernsClone: null,
      maxUserNamespaces: '63000',
      profileAllowsUserns: false,
      chromeSandbox: { uid: process.getuid!() },
    });
    expect(before.chromeSandbox!.mode & 0o777).toBe(0o755);

    // The profile the README's command installs is recognized once it is there.
    await fs.writeFile(path.join(apparmor, 'mino-electron'), apparmorProfile('mino-electron', electron));
    expect(readSandboxFacts(electron, { proc, apparmorDir: apparmor }).profileAllowsUserns).toBe(true);
  });

  it('does not take a profile for another binary, or one without userns, as allowing this one', async () => {
    await fs.writeFile(path.join(root, 'code'), apparmorProfile('code', '/usr/share/code/code'));
    await fs.writeFile(path.join(root, 'other'), `profile other "${binary}" {\n  /tmp/** r,\n}\n`);
    expect(apparmorProfileAllows(binary, root)).toBe(false);
    expect(apparmorProfileAllows(binary, path.join(root, 'missing'))).toBe(false);
  });
});

describe('apparmorProfile', () => {
  it('grants userns to exactly the quoted binary and leaves room for local additions', () => {
    const text = apparmorProfile('mino-electron', '/opt/my apps/electron');
    expect(text).toContain('abi <abi/4.0>,');
    expect(text).toMatch(/^profile mino-electron "\/opt\/my apps\/electron" flags=\(unconfined\) \{$/m);
    expect(text).toMatch(/^\s+userns,$/m);
    expect(text).toContain('include if exists <local/mino-electron>');
  });

  it('refuses a relative path and one AppArmor cannot quote', () => {
    expect(() => apparmorProfile('x', 'node_modules/electron')).toThrow(/absolute path/);
    expect(() => apparmorProfile('x', '/tmp/a"b/electron')).toThrow(/quote/);
  });
});
