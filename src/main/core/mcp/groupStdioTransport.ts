// The stdio transport for a local MCP server, with the server as the leader
// of its own process group. The SDK's transport stops only the process it
// started: whatever that server started in turn (a language server, a
// watcher, a shell) outlived the session. Here closing, and the server
// exiting on its own, end the whole group: SIGTERM, then SIGKILL after a
// grace. Messages are framed and capped (10 MiB) by the SDK's own ReadBuffer,
// and the environment is the SDK's minimal one plus the configured values.
// POSIX only: on Windows the SDK's transport is used (no process groups).
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killProcessGroup } from '../tools/processGroup';

/** The largest message Mino reads from a server: the SDK's cap. */
export const MAX_MCP_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** How long a server gets to exit after its stdin closes, and its group after SIGTERM. */
const EXIT_GRACE_MS = 2000;

export interface GroupStdioParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** Raised (through onerror) when a server sends a message over the cap; the connection is then closed. */
export class McpMessageTooLargeError extends Error {
  constructor(options?: ErrorOptions) {
    super(`the server sent a message larger than ${MAX_MCP_MESSAGE_BYTES / 1024 / 1024} MiB, the most Mino reads from an MCP server, so the connection was closed`, options);
    this.name = 'McpMessageTooLargeError';
  }
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, readable before start() so no early output is lost. */
  readonly stderr = new PassThrough();
  private child?: ChildProcess;
  private readonly readBuffer = new ReadBuffer();
  private ending?: Promise<void>;

  constructor(private readonly params: GroupStdioParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started.');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: true,
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('exit', () => {
        // What the server started is still in its group: end it, whether Mino asked the server to stop or not.
        void this.endGroup();
      });
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdin = this.child?.stdin;
      if (!stdin) throw new Error('Not connected');
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, gives the server a moment to exit, then ends its whole process group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    try {
      child.stdin?.end();
    } catch {
      // ignore: stdin already closed; the exit awaited below still comes
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, EXIT_GRACE_MS).unref())]);
    await this.endGroup();
    await exited;
  }

  private receive(chunk: Buffer): void {
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      // The SDK's buffer refuses more than its cap: say so, rather than as a connection that merely closed.
      this.onerror?.(new McpMessageTooLargeError({ cause: error }));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }

  private endGroup(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return Promise.resolve();
    this.ending ??= killProcessGroup(pid, EXIT_GRACE_MS);
    return this.ending;
  }
}
