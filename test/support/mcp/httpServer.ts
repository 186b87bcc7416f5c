// A Streamable HTTP MCP server on 127.0.0.1, built with the SDK's server side,
// for tests of remote servers. It records every tool call it receives, so a
// test can prove that a call did or did not reach it.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface TestHttpServer {
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  /** Tool calls received, in order: tool name and arguments. */
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  close(): Promise<void>;
}

function buildServer(calls: TestHttpServer['calls']): McpServer {
  const server = new McpServer({ name: 'test-http', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes the message.', inputSchema: { message: z.string() }, annotations: { readOnlyHint: true } },
    async ({ message }) => {
      calls.push({ tool: 'echo', args: { message } });
      return { content: [{ type: 'text', text: `Echo: ${message}` }] };
    },
  );
  server.registerTool('show-request', { description: 'Returns the headers and URL of the request that carried this call.' }, async (extra) => {
    calls.push({ tool: 'show-request', args: {} });
    const info = extra.requestInfo;
    return { content: [{ type: 'text', text: JSON.stringify({ url: info?.url?.toString(), headers: info?.headers }, null, 2) }] };
  });
  server.registerTool('fail', { description: 'Always reports an error.' }, async () => {
    calls.push({ tool: 'fail', args: {} });
    return { isError: true, content: [{ type: 'text', text: 'Nothing to do: this tool always fails.' }] };
  });
  server.registerTool(
    'big',
    { description: 'Returns a text of the given size in bytes.', inputSchema: { bytes: z.number().int().min(0) } },
    async ({ bytes }) => {
      calls.push({ tool: 'big', args: { bytes } });
      return { content: [{ type: 'text', text: 'x'.repeat(bytes) }] };
    },
  );
  server.registerTool('picture', { description: 'Returns an image and an embedded resource.' }, async () => {
    calls.push({ tool: 'picture', args: {} });
    return {
      content: [
        { type: 'image', data: Buffer.alloc(300, 1).toString('base64'), mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://notes/1', mimeType: 'text/plain', text: 'twelve bytes' } },
        { type: 'resource_link', uri: 'test://notes/2', name: 'Second note' },
      ],
    };
  });
  return server;
}

/** Starts the server in stateless mode: each request gets a fresh server and transport. */
export async function startTestHttpServer(): Promise<TestHttpServer> {
  const calls: TestHttpServer['calls'] = [];
  const httpServer = http.createServer(async (req, res) => {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    const server = buildServer(calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
