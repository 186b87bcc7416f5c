import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServerConfigSchema, loadMcpConfig } from '../../../src/main/core/mcp/config';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';

const dirs: string[] = [];
afterEach(async () => removeDirs(dirs.splice(0)));

async function homeWithConfig(content: string | undefined, mode = 0o600): Promise<{ home: string; file: string }> {
  const home = await makeTempDir('home');
  dirs.push(home);
  const file = path.join(home, '.mino', 'mcp.json');
  if (content !== undefined) {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, content, { mode });
    await fs.chmod(file, mode);
  }
  return { home, file };
}

describe('loadMcpConfig', () => {
  it('gives no servers and no problems when ~/.mino/mcp.json does not exist', async () => {
    const { home } = await homeWithConfig(undefined);
    expect(await loadMcpConfig(home)).toEqual({ servers: [], problems: [] });
  });

  it('reads stdio and HTTP servers with their fields', async () => {
    const servers = [
      { name: 'files', command: 'npx', args: ['-y', 'server'], env: { TOKEN: 'abcd' }, cwd: 'tools' },
      { name: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer xyz123' } },
    ];
    const { home } = await homeWithConfig(JSON.stringify({ servers }));
    expect(await loadMcpConfig(home)).toEqual({ servers, problems: [] });
  });

  it('reports invalid JSON naming the file, and leaves the file as it was', async () => {
    const broken = '{"servers": [ {"name": "a", ';
    const { home, file } = await homeWithConfig(broken);
    const loaded = await loadMcpConfig(home);
    expect(loaded.servers).toEqual([]);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toContain(file);
    expect(loaded.problems[0]).toContain('not valid JSON');
    expect(await fs.readFile(file, 'utf8')).toBe(broken);
  });

  it('skips each invalid entry with a problem that says what to fix, and keeps the valid ones', async () => {
    const { home, file } = await homeWithConfig(
      JSON.stringify({
        servers: [
          { name: 'good', command: 'node' },
          { name: 'both', command: 'node', url: 'https://example.com/mcp' },
          { name: 'typo', command: 'node', arg: ['x'] },
          { name: 'ftp', url: 'ftp://example.com/mcp' },
          { name: 'userinfo', url: 'https://me:pw@example.com/mcp' },
          { name: 'good', url: 'https://example.com/mcp' },
          'not an object',
        ],
      }),
    );
    const loaded = await loadMcpConfig(home);
    expect(loaded.servers).toEqual([{ name: 'good', command: 'node' }]);
    expect(loaded.problems).toHaveLength(6);
    for (const problem of loaded.problems) expect(problem).toContain(file);
    expect(loaded.problems[0]).toMatch(/server 2 \("both"\): give either "command".*"url"/);
    expect(loaded.problems[1]).toMatch(/server 3 \("typo"\): unknown field "arg"/);
    expect(loaded.problems[2]).toMatch(/server 4 \("ftp"\): "url": must be an http:\/\/ or https:\/\/ address/);
    expect(loaded.problems[3]).toMatch(/server 5 \("userinfo"\):.*send credentials in "headers"/);
    expect(loaded.problems[4]).toMatch(/server 6 \("good"\): the name "good" is already used/);
    expect(loaded.problems[5]).toMatch(/server 7: each server must be an object/);
  });

  it('reports a file without a "servers" list', async () => {
    const { home, file } = await homeWithConfig(JSON.stringify({ mcpServers: {} }));
    const loaded = await loadMcpConfig(home);
    expect(loaded.servers).toEqual([]);
    expect(loaded.problems[0]).toContain(`${file} must be an object with a "servers" list`);
  });

  it('tightens a file readable by others to 0600, since it holds credentials', async () => {
    const { home, file } = await homeWithConfig(JSON.stringify({ servers: [] }), 0o644);
    await loadMcpConfig(home);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe('McpServerConfigSchema', () => {
  it('accepts a stdio server and an HTTP server, and refuses an entry with neither', () => {
    expect(McpServerConfigSchema.safeParse({ name: 'a', command: 'node' }).success).toBe(true);
    expect(McpServerConfigSchema.safeParse({ name: 'b', url: 'http://127.0.0.1:1/mcp', headers: { A: 'b' } }).success).toBe(true);
    expect(McpServerConfigSchema.safeParse({ name: 'c' }).success).toBe(false);
  });
});
