// A small stdio MCP server for tests of what the published servers cannot
// show: where it runs, and what happens when it hangs or dies in the middle of a call.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'probe', version: '1.0.0' });

server.registerTool('whoami', { description: 'Returns the process id and working directory of this server.' }, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ pid: process.pid, cwd: process.cwd() }) }],
}));

server.registerTool('hang', { description: 'Never answers.' }, () => new Promise(() => {}));

server.registerTool('crash', { description: 'Exits the server process without answering.' }, async () => {
  process.exit(3);
});

await server.connect(new StdioServerTransport());
