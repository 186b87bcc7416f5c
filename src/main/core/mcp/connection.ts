// One configured MCP server, as seen by one session: connected on first use,
// bounded by timeouts, started again on the next call after it fails. Every
// message that leaves this module has the server's credentials redacted.
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult, type Implementation, type Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { isStdioServer, type McpServerConfig } from './config';
import { GroupStdioTransport, McpMessageTooLargeError } from './groupStdioTransport';
import { startFailureSubject } from './problems';
import { credentialValues, makeRedactor, type Redactor } from './redact';
import { errorText, log } from '../log/log';
import { errorCode } from '../../../shared/errors';

export type ConnectionState = 'connected' | 'failed' | 'not_connected';

export interface ConnectionOptions {
  projectDir: string;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  clientInfo: Implementation;
}

export type CallOutcome =
  | { ok: true; result: CallToolResult }
  /** `error`: the server could not be reached or did not answer; `failed`: it answered with an error. */
  | { ok: false; status: 'error' | 'failed'; reason: string };

/** Thrown (already redacted) when a server cannot be started, reached or listed. */
export class McpConnectError extends Error {}

const STDERR_TAIL_CHARS = 2000;
const MAX_TOOL_PAGES = 50;

export class McpConnection {
  readonly redact: Redactor;
  private client?: Client;
  private connecting?: Promise<Client>;
  private lastError?: string;
  private stderrTail = '';
  /** Set when the server sent a message over the cap; the closed connection is then reported as that. */
  private tooLarge = false;
  private closing = new Set<Promise<void>>();
  private closed = false;

  constructor(
    readonly server: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.redact = makeRedactor(credentialValues(server));
  }

  get state(): ConnectionState {
    if (this.client) return 'connected';
    return this.lastError === undefined ? 'not_connected' : 'failed';
  }

  /** Why the last attempt or connection failed, redacted; for the person. */
  get error(): string | undefined {
    return this.lastError;
  }

  /** Connects if needed and lists every tool the server offers. */
  async listTools(): Promise<McpToolDefinition[]> {
    const client = await this.connect();
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
        const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.options.connectTimeoutMs });
        tools.push(...result.tools);
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
    } catch (error) {
      const reason = this.describeFailure(error, this.options.connectTimeoutMs);
      this.fail(client, reason);
      throw new McpConnectError(`MCP server "${this.server.name}" could not list its tools: ${reason}`);
    }
    return tools;
  }

  /** Calls one tool. Never throws: every failure becomes an outcome with a reason the model can act on. */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallOutcome> {
    if (signal?.aborted) return stopped();
    let client: Client;
    try {
      client = await this.connect();
    } catch (error) {
      return {
        ok: false,
        status: 'error',
        reason: `${(error as Error).message} Mino will try to connect again on the next call; try again later, or carry on without this tool.`,
      };
    }
    try {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: this.options.callTimeoutMs,
        ...(signal ? { signal } : {}),
      })) as CallToolResult;
      return { ok: true, result };
    } catch (error) {
      if (signal?.aborted) return stopped();
      if (isConnectionFailure(error)) {
        const reason = this.describeFailure(error, this.options.callTimeoutMs);
        // A server that missed its deadline may be stuck; a fresh start is the likeliest cure.
        this.fail(client, reason);
        return {
          ok: false,
          status: 'error',
          reason: `The ${this.server.name} MCP server did not complete the call: ${reason}. Mino will connect to it afresh on the next call; you may try again later.`,
        };
      }
      return { ok: false, status: 'failed', reason: `The ${this.server.name} MCP server refused the call: ${this.redact(messageOf(error))}` };
    }
  }

  /** Stops the server (or drops the HTTP session) and waits for it to go. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (client) this.track(client.close());
    await Promise.allSettled([...this.closing]);
  }

  private connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new McpConnectError(`MCP server "${this.server.name}" is closed.`));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    this.stderrTail = '';
    this.tooLarge = false;
    const client = new Client(this.options.clientInfo, { capabilities: {} });
    // Errors also reach the caller through the failed request; this keeps them from being unhandled.
    client.onerror = () => {};
    try {
      await client.connect(this.makeTransport(), { timeout: this.options.connectTimeoutMs });
    } catch (error) {
      const reason = this.describeStartFailure(error);
      this.track(client.close());
      this.lastError = reason;
      log.warn('mcp.start_failed', { server: this.server.name, reason });
      throw new McpConnectError(`${startFailureSubject(this.server.name)}: ${reason}.`);
    }
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.lastError = this.withStderr(this.closedReason());
      // Unasked for: the process exited (or the remote end hung up) while Mino still used it.
      log.warn('mcp.exited', { server: this.server.name, reason: this.lastError });
    };
    if (this.closed) {
      this.track(client.close());
      throw new McpConnectError(`MCP server "${this.server.name}" is closed.`);
    }
    this.client = client;
    this.lastError = undefined;
    return client;
  }

  private makeTransport(): Transport {
    if (isStdioServer(this.server)) {
      const params = {
        command: this.server.command,
        args: this.server.args ?? [],
        // Merged over the SDK's minimal safe environment (PATH, HOME, ...), never Mino's own.
        env: this.server.env ?? {},
        cwd: path.resolve(this.options.projectDir, this.server.cwd ?? '.'),
      };
      // Its own process group where there are groups, so closing ends what the server started too.
      const transport = process.platform === 'win32' ? new StdioClientTransport({ ...params, stderr: 'pipe' }) : new GroupStdioTransport(params);
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      // The client chains its own handler after this one. A message over the cap closes the connection,
      // which would otherwise read as "the server closed the connection".
      transport.onerror = (error) => {
        if (error instanceof McpMessageTooLargeError || /ReadBuffer exceeded maximum size/.test(error.message)) this.tooLarge = true;
      };
      return transport;
    }
    return new StreamableHTTPClientTransport(new URL(this.server.url), {
      requestInit: { headers: this.server.headers ?? {} },
    });
  }

  private fail(client: Client, reason: string): void {
    log.warn('mcp.dropped', { server: this.server.name, reason });
    if (this.client === client) this.client = undefined;
    this.lastError = reason;
    this.track(client.close());
  }

  private track(closing: Promise<void>): void {
    const settled = closing.catch((error: unknown) => log.debug('mcp.close_failed', { server: this.server.name, error: errorText(error) })).finally(() => this.closing.delete(settled));
    this.closing.add(settled);
  }

  private describeStartFailure(error: unknown): string {
    const code = errorCode(error);
    if (isStdioServer(this.server) && code === 'ENOENT') {
      return `the command "${this.server.command}" was not found. Check "command" for this server in ~/.mino/mcp.json`;
    }
    if (isStdioServer(this.server) && code === 'EACCES') {
      return `the command "${this.server.command}" is not executable. Check "command" for this server in ~/.mino/mcp.json`;
    }
    return this.describeFailure(error, this.options.connectTimeoutMs);
  }

  private describeFailure(error: unknown, timeoutMs: number): string {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return this.withStderr(`no answer within ${formatSeconds(timeoutMs)}`);
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return this.withStderr(this.closedReason());
    }
    return this.withStderr(messageOf(error));
  }

  private closedReason(): string {
    return this.tooLarge ? new McpMessageTooLargeError().message : 'the server closed the connection';
  }

  private withStderr(reason: string): string {
    const tail = this.stderrTail.trim();
    return this.redact(tail ? `${reason} (server output: ${tail.split('\n').slice(-5).join(' | ')})` : reason);
  }
}

// A JSON-RPC error answer means the server is alive and refused; anything
// else (a timeout, a closed connection, a refused socket) means it is not.
function isConnectionFailure(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ConnectionClosed;
  return true;
}

function stopped(): CallOutcome {
  return { ok: false, status: 'error', reason: 'The call was stopped before the server answered.' };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
