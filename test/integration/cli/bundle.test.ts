// The built `mino` command (vite.cli.config.mts), as it ships: built into a
// folder of its own with no node_modules anywhere above it, then run against
// the loopback mock. Proves the dependencies are bundled in, that the MCP
// client is a separate chunk loaded only when a server is configured, and
// that the launcher keeps a code cache it checks before using.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { buildCli, type BuiltCli } from '../../support/builtCli';
import { probeServer } from '../../support/mcp/servers';
import { startMockResponsesServer } from '../../support/mockResponsesServer';

let cli: BuiltCli;

/** The MCP client's chunk is named for its entry, src/main/core/mcp/manager.ts. */
const isMcpChunk = (file: string) => /^chunks\/manager-[^/]+\.js$/.test(file);

beforeAll(async () => {
  cli = await buildCli();
}, 120_000);

afterAll(async () => cli?.remove());

interface BuiltRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The bundle's own files that were loaded. */
  loaded: string[];
  /** Whether Node's built-in fetch (its own copy of undici) was loaded. */
  nodeFetchLoaded: boolean;
  /** Whether node:tls was loaded (loading it reads every CA certificate Node knows). */
  tlsLoaded: boolean;
}

/**
 * Runs the built CLI with a preload that reports, at exit, which of the
 * bundle's own files were loaded, so a test can see whether a chunk was, and
 * whether Node loaded its built-in fetch.
 */
async function runBuilt(fx: AgentFixture, args: string[], env: NodeJS.ProcessEnv = fx.env): Promise<BuiltRun> {
  const report = path.join(fx.home, 'loaded.json');
  const preload = path.join(fx.home, 'report-loaded.cjs');
  await fs.writeFile(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ files: Object.keys(require.cache), ` +
      `nodeFetch: process.moduleLoadList.some((name) => name.includes('internal/deps/undici/')), ` +
      `tls: process.moduleLoadList.includes('NativeModule tls') })));\n`,
  );
  const child = spawn(process.execPath, ['--require', preload, cli.entry, ...args], { cwd: fx.project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const { files, nodeFetch, tls } = JSON.parse(await fs.readFile(report, 'utf8')) as { files: string[]; nodeFetch: boolean; tls: boolean };
  const loaded = files.filter((file) => file.startsWith(cli.dir)).map((file) => path.relative(cli.dir, file));
  return { code, stdout, stderr, loaded, nodeFetchLoaded: nodeFetch, tlsLoaded: tls };
}

describe('the built mino command', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('runs a turn from a folder without node_modules, without loading the MCP chunk when no server is configured', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'alpha\n' } });
    fx.server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'It says alpha.' });
    const run = await runBuilt(fx, ['exec', '--json', 'What does a.txt say?']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"status":"completed"');
    expect(run.stdout).toContain('It says alpha.');
    expect(run.loaded).toContain('main.js');
    expect(run.loaded.filter(isMcpChunk)).toEqual([]);
  });

  it('answers a turn of the default model family without loading the tokenizer chunk, far from the compaction point', async () => {
    fx = await makeAgentFixture({ model: 'gpt-5-mini' });
    fx.server.enqueue({ text: 'Hi.' });
    const run = await runBuilt(fx, ['exec', '--json', 'Say hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"status":"completed"');
    expect(run.loaded.filter((file) => file.startsWith('chunks/o200k_base-'))).toEqual([]);
  });

  it("builds none of the desktop window's contract, whose hundreds of schemas a run would build at start without using", async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'Hi.' });
    const run = await runBuilt(fx, ['exec', '--json', 'Say hi']);
    expect(run.code).toBe(0);
    const sources: string[] = [];
    // Every file but the bundler's small runtime has a source map, which lists the sources it was built from.
    for (const file of run.loaded.filter((loaded) => !/^chunks\/rolldown-runtime-/.test(loaded))) {
      const map = JSON.parse(await fs.readFile(path.join(cli.dir, `${file}.map`), 'utf8')) as { sources: string[] };
      sources.push(...map.sources);
    }
    expect(sources.some((source) => source.endsWith('src/main/core/sessions/records.ts'))).toBe(true);
    expect(sources.filter((source) => /src\/shared\/(ipc|sessions|rules|review)\.ts$/.test(source))).toEqual([]);
  });

  it('is ASCII only, so V8 keeps the text of each file one byte per character', async () => {
    const files = (await fs.readdir(cli.dir, { recursive: true })).filter((file) => file.endsWith('.js'));
    expect(files).toContain('main.js');
    const withOthers = [];
    for (const file of files) if (/[^\x00-\x7f]/.test(await fs.readFile(path.join(cli.dir, file), 'utf8'))) withOthers.push(file);
    expect(withOthers).toEqual([]);
  });

  it("asks the model through the bundled fetch, never loading Node's built-in one, whose functions every run would compile again", async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'Hi.' });
    const run = await runBuilt(fx, ['exec', '--json', 'Say hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"status":"completed"');
    expect(run.nodeFetchLoaded).toBe(false);
    expect(run.loaded.filter((file) => file.startsWith('chunks/index-fetch-'))).toHaveLength(1);
  });

  it('reaches an http:// service without loading TLS, and an https:// one through the CA that NODE_EXTRA_CA_CERTS names', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'Plain.' });
    const plain = await runBuilt(fx, ['exec', '--json', 'Say hi']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('Plain.');
    expect(plain.tlsLoaded).toBe(false);

    const fixtures = path.join(__dirname, '..', 'model', 'fixtures');
    const [key, cert] = await Promise.all([fs.readFile(path.join(fixtures, 'loopback-key.pem'), 'utf8'), fs.readFile(path.join(fixtures, 'loopback-cert.pem'), 'utf8')]);
    const secure = await startMockResponsesServer({ tls: { key, cert } });
    try {
      secure.enqueue({ text: 'Encrypted.' });
      const env = { ...fx.env, OPENAI_BASE_URL: secure.baseURL, NODE_EXTRA_CA_CERTS: path.join(fixtures, 'loopback-cert.pem') };
      const encrypted = await runBuilt(fx, ['exec', '--json', 'Say hi'], env);
      expect(encrypted.stderr).toBe('');
      expect(encrypted.code).toBe(0);
      expect(encrypted.stdout).toContain('Encrypted.');
      expect(encrypted.tlsLoaded).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('loads the MCP chunk when a server is configured, and offers its tools', async () => {
    fx = await makeAgentFixture();
    await writePrivateFile((await ensureMinoHome(fx.home)).mcp, JSON.stringify({ servers: [probeServer()] }));
    fx.server.enqueue({ text: 'Done.' });
    const run = await runBuilt(fx, ['exec', '--json', 'Hello']);
    expect(run.code).toBe(0);
    expect(run.loaded.filter(isMcpChunk)).toHaveLength(1);
    const tools = (fx.server.requests[0].body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(tools).toContain('mcp_probe__whoami');
  });

  describe('the code cache', () => {
    /** The cache folder of a run whose XDG_CACHE_HOME is inside the fixture, and that run's environment. */
    const cacheEnv = (fx: AgentFixture) => {
      const base = path.join(fx.home, 'xdg-cache');
      const env: NodeJS.ProcessEnv = { ...fx.env, XDG_CACHE_HOME: base };
      delete env.NODE_DISABLE_COMPILE_CACHE;
      return { env, dir: path.join(base, 'mino', 'v8') };
    };
    const scriptAnswers = (fx: AgentFixture, times: number) => {
      for (let i = 0; i < times; i += 1) fx.server.enqueue({ text: `Answer ${i}.` });
    };
    it('is written by a first run to a private folder, and a second run completes with it', async () => {
      fx = await makeAgentFixture();
      scriptAnswers(fx, 2);
      const { env, dir } = cacheEnv(fx);
      expect((await runBuilt(fx, ['exec', 'One'], env)).code).toBe(0);
      expect((await fs.stat(dir)).mode & 0o077).toBe(0);
      const files = await fs.readdir(dir);
      expect(files.length).toBeGreaterThan(0);
      const second = await runBuilt(fx, ['exec', 'Two'], env);
      expect(second.stderr).toBe('');
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('Answer 1.');
    });

    /** Every cache file of a subcommand's folder, with its bytes. */
    const cacheContents = async (dir: string, scope: string) => {
      const folder = path.join(dir, scope);
      const names = (await fs.readdir(folder)).sort();
      return new Map(await Promise.all(names.map(async (name) => [name, (await fs.readFile(path.join(folder, name))).toString('base64')] as const)));
    };

    it('is kept per subcommand, and a later run that finds every file cached writes nothing', async () => {
      fx = await makeAgentFixture();
      scriptAnswers(fx, 2);
      const { env, dir } = cacheEnv(fx);
      expect((await runBuilt(fx, ['exec', 'One'], env)).code).toBe(0);
      const written = await cacheContents(dir, 'exec');
      // main.js, the exec chunk and the openai chunk at least.
      expect(written.size).toBeGreaterThanOrEqual(3);
      const stamps = await Promise.all([...written.keys()].map(async (name) => (await fs.stat(path.join(dir, 'exec', name))).mtimeMs));
      expect((await runBuilt(fx, ['exec', 'Two'], env)).code).toBe(0);
      expect(await cacheContents(dir, 'exec')).toEqual(written);
      expect(await Promise.all([...written.keys()].map(async (name) => (await fs.stat(path.join(dir, 'exec', name))).mtimeMs))).toEqual(stamps);
      expect((await runBuilt(fx, ['rules', 'list'], env)).code).toBe(0);
      expect((await fs.readdir(path.join(dir, 'rules'))).length).toBeGreaterThan(0);
    });

    it('keeps the caches of a run that failed only until a run succeeds', async () => {
      fx = await makeAgentFixture();
      scriptAnswers(fx, 1);
      const { env, dir } = cacheEnv(fx);
      expect((await runBuilt(fx, ['exec'], env)).code).toBe(2); // no prompt: a usage error
      const failed = await fs.readdir(path.join(dir, 'exec'));
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.every((name) => name.endsWith('.failed-run'))).toBe(true);
      expect((await runBuilt(fx, ['exec', 'One'], env)).code).toBe(0);
      const after = await fs.readdir(path.join(dir, 'exec'));
      expect(after.filter((name) => name.endsWith('.failed-run'))).toEqual([]);
      // What the failed run cached (main.js at least) is cached again by the successful run, and more besides.
      for (const name of failed) expect(after).toContain(name.replace('.failed-run', ''));
      expect(after.length).toBeGreaterThan(failed.length);
    });

    it('replaces caches V8 rejects, and the run completes as without them', async () => {
      fx = await makeAgentFixture();
      scriptAnswers(fx, 2);
      const { env, dir } = cacheEnv(fx);
      expect((await runBuilt(fx, ['exec', 'One'], env)).code).toBe(0);
      const written = await cacheContents(dir, 'exec');
      for (const name of written.keys()) await fs.writeFile(path.join(dir, 'exec', name), 'not a code cache');
      const second = await runBuilt(fx, ['exec', 'Two'], env);
      expect(second.stderr).toBe('');
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('Answer 1.');
      const rewritten = await cacheContents(dir, 'exec');
      expect([...rewritten.keys()]).toEqual([...written.keys()]);
      for (const bytes of rewritten.values()) expect(Buffer.from(bytes, 'base64').toString()).not.toBe('not a code cache');
    });

    it('is neither read nor written with NODE_DISABLE_COMPILE_CACHE=1', async () => {
      fx = await makeAgentFixture();
      scriptAnswers(fx, 1);
      const { env, dir } = cacheEnv(fx);
      const run = await runBuilt(fx, ['exec', 'One'], { ...env, NODE_DISABLE_COMPILE_CACHE: '1' });
      expect(run.code).toBe(0);
      await expect(fs.access(dir)).rejects.toThrow();
    });
  });
});
