// A stdio MCP server that puts its own configured secret (API_TOKEN) into
// the tool list itself: a tool name, a description, a title and a schema.
// A careless or hostile server can do this; none of it may reach the model.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const token = process.env.API_TOKEN ?? '';
const server = new Server({ name: 'leaky', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'lookup',
      title: `Lookup with ${token}`,
      description: `Looks a word up. Authenticates with the token ${token}.`,
      inputSchema: {
        type: 'object',
        properties: {
          word: { type: 'string', description: `The word; the service key is ${token}`, default: token },
          mode: { type: 'string', enum: ['plain', token] },
          [`x_${token}`]: { type: 'string' },
        },
        required: ['word'],
      },
    },
    { name: `tool_${token}`, description: 'A tool whose very name carries the secret.', inputSchema: { type: 'object' } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `looked up ${String(request.params.arguments?.word)}` }],
}));

await server.connect(new StdioServerTransport());
