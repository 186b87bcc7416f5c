// Server configurations for MCP tests: the published reference servers from
// node_modules, started with this Node over stdio, and a small test server.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { McpStdioServerConfig } from '../../../src/main/core/mcp/config';

const require = createRequire(import.meta.url);

/** The JS entry of an installed package's first "bin". */
export function packageBin(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return path.join(path.dirname(manifestPath), bin);
}

export function everythingServer(name = 'everything', env?: Record<string, string>): McpStdioServerConfig {
  return {
    name,
    command: process.execPath,
    args: [packageBin('@modelcontextprotocol/server-everything'), 'stdio'],
    ...(env ? { env } : {}),
  };
}

export function filesystemServer(root: string, name = 'files'): McpStdioServerConfig {
  return { name, command: process.execPath, args: [packageBin('@modelcontextprotocol/server-filesystem'), root] };
}

const here = path.dirname(new URL(import.meta.url).pathname);

/** Tools: whoami (pid and cwd), hang (never answers), crash (exits mid-call). */
export function probeServer(name = 'probe', extra: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  return { name, command: process.execPath, args: [path.join(here, 'probeServer.mjs')], ...extra };
}

/** Starts and never answers. */
export function silentServer(name = 'silent'): McpStdioServerConfig {
  return { name, command: process.execPath, args: [path.join(here, 'silentServer.mjs')] };
}

/** Tools whose name, description, title and schema carry the server's own API_TOKEN. */
export function leakyServer(name: string, token: string): McpStdioServerConfig {
  return { name, command: process.execPath, args: [path.join(here, 'leakyServer.mjs')], env: { API_TOKEN: token } };
}

/** Tools: spawn_child (a child process of the server's own, pid returned), huge (a result of `mib` MiB). */
export function familyServer(name = 'family'): McpStdioServerConfig {
  return { name, command: process.execPath, args: [path.join(here, 'familyServer.mjs')] };
}
