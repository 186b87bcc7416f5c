// Every file Mino reads from ~/.mino, planted as what a mistake or another
// program can leave there: a FIFO (a plain read waits forever for a writer),
// a link to /dev/zero (a plain read fills the heap), a file far too large, a
// UTF-8 byte order mark, a mode readable by others. Each reader answers at
// once with a message naming the file, or reads it and tightens its mode.
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { ensureMinoHome, type MinoPaths } from '../../../src/main/core/config/minoHome';
import { loadSettings } from '../../../src/main/core/config/settings';
import { loadSoul } from '../../../src/main/core/config/soul';
import { loadMcpConfig } from '../../../src/main/core/mcp/config';
import { listSessions } from '../../../src/main/core/sessions/list';
import { loadSession } from '../../../src/main/core/sessions/load';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { listRecentProjects } from '../../../src/main/service/features/recentProjects';

let home: string;
let paths: MinoPaths;
const fifos: string[] = [];

beforeEach(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-home-files-')));
  paths = await ensureMinoHome(home);
});

afterEach(async () => {
  // A reader that did block on a FIFO (the bug) is released by a writer opening and closing it.
  for (const fifo of fifos.splice(0)) {
    const writer = await fs.open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => null);
    await writer?.close();
  }
  await fs.rm(home, { recursive: true, force: true });
});

function fifoAt(file: string): void {
  execFileSync('mkfifo', [file]);
  fifos.push(file);
}

describe('files in ~/.mino that are not regular files', () => {
  it('config.json as a FIFO: settings fail at once, naming the file and what it is', async () => {
    fifoAt(paths.config);
    const result = await loadSettings(home);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/config\.json is a named pipe \(FIFO\), not a regular file/);
  });

  it('config.json linked to /dev/zero: refused as a device, not read', async () => {
    await fs.symlink('/dev/zero', paths.config);
    const result = await loadSettings(home);
    expect(!result.ok && result.error).toMatch(/config\.json is a device, not a regular file/);
  });

  it('config.json larger than the cap: refused with its size', async () => {
    await fs.writeFile(paths.config, `{"model":"m","pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    const result = await loadSettings(home);
    expect(!result.ok && result.error).toMatch(/config\.json is larger than Mino reads for it \(2 MiB; at most 1 MiB\)/);
  });

  it('mcp.json as a FIFO: a problem line, no servers, no wait', async () => {
    fifoAt(paths.mcp);
    const config = await loadMcpConfig(home);
    expect(config.servers).toEqual([]);
    expect(config.problems).toEqual([expect.stringMatching(/mcp\.json is a named pipe \(FIFO\).*No MCP servers are available/)]);
  });

  it('SOUL.md as a FIFO: loading the system prompt fails at once, naming the file', async () => {
    fifoAt(paths.soul);
    await expect(loadSoul(home)).rejects.toThrow(/SOUL\.md is a named pipe \(FIFO\)/);
  });

  it('recent-projects.json as a FIFO: the list is empty, as for any damaged list', async () => {
    fifoAt(paths.recentProjects);
    expect(await listRecentProjects(home)).toEqual([]);
  });

  it('a session file as a FIFO: loading and continuing it fail with the reason; listing skips it', async () => {
    const log = await SessionLog.create(home, home);
    await log.close();
    const id = 'a'.repeat(32);
    fifoAt(path.join(paths.sessions, `${id}.jsonl`));
    const validate = new ToolRegistry(BUILTIN_TOOLS).validateCall;
    await expect(loadSession(home, id, validate)).rejects.toThrow(/is a named pipe \(FIFO\), not a regular file/);
    await expect(SessionLog.openForAppend(home, id)).rejects.toThrow(/is a named pipe \(FIFO\), not a regular file/);
    expect((await listSessions(home)).map((s) => s.id)).toEqual([log.id]);
  });
});

describe('regular files in ~/.mino', () => {
  it('config.json with a UTF-8 byte order mark is read', async () => {
    await fs.writeFile(paths.config, `\uFEFF${JSON.stringify({ model: 'bom-model' })}`);
    const result = await loadSettings(home);
    expect(result.ok && result.value.settings.model).toBe('bom-model');
  });

  it('mcp.json and SOUL.md with a byte order mark are read without it', async () => {
    await fs.writeFile(paths.mcp, `\uFEFF${JSON.stringify({ servers: [] })}`);
    await fs.writeFile(paths.soul, '\uFEFFBe brief.');
    expect(await loadMcpConfig(home)).toEqual({ servers: [], problems: [] });
    expect(await loadSoul(home)).toBe('Be brief.\n');
  });

  it('a 0644 config.json, mcp.json, SOUL.md or session file is tightened to 0600 when read', async () => {
    await fs.writeFile(paths.config, '{}');
    await fs.writeFile(paths.mcp, '{"servers":[]}');
    await fs.writeFile(paths.soul, 'Be brief.');
    const log = await SessionLog.create(home, home);
    await log.close();
    const session = path.join(paths.sessions, `${log.id}.jsonl`);
    for (const file of [paths.config, paths.mcp, paths.soul, session]) await fs.chmod(file, 0o644);

    await loadSettings(home);
    await loadMcpConfig(home);
    await loadSoul(home);
    await loadSession(home, log.id, new ToolRegistry(BUILTIN_TOOLS).validateCall);
    for (const file of [paths.config, paths.mcp, paths.soul, session]) {
      expect({ file: path.basename(file), mode: (await fs.stat(file)).mode & 0o777 }).toEqual({ file: path.basename(file), mode: 0o600 });
    }
  });
});
