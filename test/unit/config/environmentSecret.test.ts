// The model service key leaves Mino's environment at start-up: a process of
// the same user (a command run outside the sandbox) must not find it in
// /proc/<pid>/environ, and no child may inherit it, while Mino keeps a copy
// for the model client.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withholdSecretsFromProcess } from '../../../src/main/core/config/environmentSecret';
import { tsxArgs } from '../../support/tsxChild';

const CHILD = path.resolve(__dirname, 'fixtures/withholdChild.ts');

interface ChildReport {
  kept: string | null;
  live: string | null;
  childSees: string;
  leftBehind: string[];
}

/** Starts the fixture (as `asUser` when given) and, once it has reported, reads its /proc/<pid>/environ; then lets it end. */
async function startAndReadEnviron(env: NodeJS.ProcessEnv, asUser?: number): Promise<{ report: ChildReport; environ: string }> {
  const command = asUser === undefined ? [process.execPath, ...tsxArgs(CHILD)] : ['setpriv', `--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', process.execPath, ...tsxArgs(CHILD)];
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
      child.on('close', (code) => reject(new Error(`the child ended (${code}) before it reported: ${out}`)));
    });
    // setpriv execs node in place, so the pid is the node process's either way.
    const environ = await fs.readFile(`/proc/${child.pid}/environ`, 'latin1');
    return { report: JSON.parse(line) as ChildReport, environ };
  } finally {
    child.stdin.end();
    await exited;
  }
}

/** Why `nobody` cannot run the fixture here, or null when it can. */
function whyNotAsNobody(): string | null {
  if (process.getuid?.() !== 0) return 'the test is not running as root, so it cannot become another user';
  try {
    execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', CHILD], { stdio: 'ignore' });
    return null;
  } catch {
    return `setpriv is missing, or user nobody cannot read ${CHILD}`;
  }
}

describe.runIf(process.platform === 'linux')('the API key at start-up (Linux)', () => {
  const key = `sk-withheld-${randomUUID()}`;
  const canary = `canary-${randomUUID()}`;
  const env = { PATH: process.env.PATH, HOME: os.tmpdir(), OPENAI_API_KEY: key, MINO_TEST_CANARY: canary };

  it('is erased from the environment block /proc/<pid>/environ shows, kept for the model client, and given to no child', async () => {
    const { report, environ } = await startAndReadEnviron(env);
    expect(environ).toContain(`MINO_TEST_CANARY=${canary}`);
    expect(environ).not.toContain(key);
    expect(environ).not.toContain('OPENAI_API_KEY=');
    expect(report).toEqual({ kept: key, live: null, childSees: 'undefined', leftBehind: [] });
  });

  const reason = whyNotAsNobody();
  it.skipIf(reason !== null)(`is erased for a user who is not root too${reason ? ` (skipped: ${reason})` : ''}`, async () => {
    const { report, environ } = await startAndReadEnviron(env, 65534);
    expect(environ).toContain(`MINO_TEST_CANARY=${canary}`);
    expect(environ).not.toContain(key);
    expect(report.kept).toBe(key);
    expect(report.leftBehind).toEqual([]);
  });
});

describe('when the start-up block cannot be erased', () => {
  let dir: string | undefined;
  afterEach(async () => dir && fs.rm(dir, { recursive: true, force: true }));

  it('says why for the log, never throws, and still takes the key out of the live environment', async () => {
    // A /proc/self stand-in whose environ holds the key but which has no mem to write through.
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-procself-'));
    await fs.writeFile(path.join(dir, 'environ'), 'PATH=/bin\0OPENAI_API_KEY=sk-stays\0');
    await fs.writeFile(path.join(dir, 'stat'), `1 (node) S ${Array.from({ length: 50 }, (_, i) => i + 4).join(' ')}\n`);
    const live: NodeJS.ProcessEnv = { PATH: '/bin', OPENAI_API_KEY: 'sk-stays' };
    const withheld = withholdSecretsFromProcess({ env: live, procSelf: dir, platform: 'linux' });
    expect(live).toEqual({ PATH: '/bin' });
    expect(withheld.env).toEqual({ PATH: '/bin', OPENAI_API_KEY: 'sk-stays' });
    expect(withheld.leftBehind).toEqual([expect.stringMatching(/^OPENAI_API_KEY could not be erased from the environment block Mino started with \(.*mem: .*ENOENT.*\); a process of this user can read it there\.$/)]);
    expect(withheld.leftBehind.join()).not.toContain('sk-stays');
  });

  it('says so where the system offers no way to erase it, and says nothing when there was no key', () => {
    const live: NodeJS.ProcessEnv = { OPENAI_API_KEY: 'sk-mac' };
    const withheld = withholdSecretsFromProcess({ env: live, platform: 'darwin' });
    expect(live).toEqual({});
    expect(withheld.env.OPENAI_API_KEY).toBe('sk-mac');
    expect(withheld.leftBehind).toEqual([expect.stringContaining('OPENAI_API_KEY stays in the environment block Mino started with')]);

    expect(withholdSecretsFromProcess({ env: {}, platform: 'darwin' }).leftBehind).toEqual([]);
    expect(withholdSecretsFromProcess({ env: {}, procSelf: '/nonexistent-proc', platform: 'linux' }).leftBehind).toEqual([]);
  });
});
