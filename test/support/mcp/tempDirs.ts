// Real temporary directories for MCP tests, removed afterwards.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export async function makeTempDir(prefix: string): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `mino-mcp-${prefix}-`)));
}

export async function removeDirs(dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
}
