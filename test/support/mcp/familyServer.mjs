// A stdio MCP server for what a server can do to its client beyond answering:
// start processes of its own (spawn_child: a long-running child, pid returned,
// which ignores nothing and just sleeps), and answer with more than the client
// reads (huge: a result of the given number of MiB).
import { spawn } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'family', version: '1.0.0' });

server.registerTool('spawn_child', { description: 'Starts a child process that runs for a minute; returns its pid.' }, async () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  child.unref();
  return { content: [{ type: 'text', text: JSON.stringify({ pid: child.pid }) }] };
});

server.registerTool('huge', { description: 'Answers with this many MiB of text.', inputSchema: { mib: z.number() } }, async ({ mib }) => ({
  content: [{ type: 'text', text: 'x'.repeat(Math.round(mib * 1024 * 1024)) }],
}));

await server.connect(new StdioServerTransport());
