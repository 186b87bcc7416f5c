import type { IpcMain, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { createIpcGate, originOf, registerIpc, type IpcEvent } from '../../../src/main/electron/ipc';
import { clientId, type ClientId } from '../../../src/main/service/clients';
import type { DispatchTarget, InvokeHandlers } from '../../../src/main/service/dispatch';
import { INVOKE_CHANNELS, type InvokeChannel } from '../../../src/shared/ipc';

const CHANNELS = Object.keys(INVOKE_CHANNELS) as InvokeChannel[];
const CLIENT = clientId('window-1');

/** A service stand-in that records every call, so a test can prove none happened. */
function recordingTarget() {
  const calls: Array<{ channel: string; client: ClientId; input: unknown }> = [];
  const handlers = Object.fromEntries(
    CHANNELS.map((channel) => [channel, async (client: ClientId, input: unknown) => (calls.push({ channel, client, input }), { handled: channel })]),
  ) as unknown as InvokeHandlers;
  const target: DispatchTarget = { handlers, hasClient: (client) => client === CLIENT };
  return { calls, target };
}

const trustedSender = { id: 1 } as WebContents;

function event(overrides: { sender?: WebContents; url?: string; parent?: unknown; noFrame?: boolean } = {}): IpcEvent {
  const frame = overrides.noFrame ? null : { url: overrides.url ?? 'app://mino/index.html', parent: overrides.parent ?? null };
  return { sender: overrides.sender ?? trustedSender, senderFrame: frame } as unknown as IpcEvent;
}

function gateWith(target: DispatchTarget) {
  return createIpcGate({ target, clientFor: (sender) => (sender === trustedSender ? CLIENT : undefined), allowedOrigins: ['app://mino'] });
}

/** One valid input per channel, so the test below also proves the gate lets good requests through. */
const VALID: Record<InvokeChannel, unknown> = {
  'app:info': undefined,
  'settings:get': undefined,
  'settings:set': { baseUrl: 'http://127.0.0.1:8080/v1', model: 'local', contextWindow: 32000, bashSandbox: false },
  'mcp:status': undefined,
  'skills:list': undefined,
  'skills:reload': undefined,
  'changes:list': undefined,
  'changes:plan': { action: 'undo' },
  'changes:reverse': { action: 'redo', turn: 2 },
  'apiKey:status': undefined,
  'apiKey:set': { apiKey: 'sk-abc' },
  'services:list': undefined,
  'services:save': { service: { name: 'ollama', protocol: 'chat', baseUrl: 'http://localhost:11434/v1', model: 'qwen3' }, makeDefault: true },
  'services:remove': { name: 'ollama' },
  'services:setKey': { name: 'groq', apiKey: 'gsk-abc' },
  'services:deleteKey': { name: 'groq' },
  'services:test': { name: 'groq' },
  'services:models': { name: 'groq' },
  'session:model': undefined,
  'session:setModel': { service: 'groq', model: 'llama-3.3-70b-versatile' },
  'projects:recent': undefined,
  'projects:pick': undefined,
  'projects:openRecent': { path: '/tmp/project' },
  'projects:current': undefined,
  'projects:openDropped': { path: '/home/p/project' },
  'files:list': { path: 'src' },
  'files:find': { query: 'src' },
  'sessions:list': undefined,
  'sessions:new': undefined,
  'sessions:open': { id: '0123456789abcdef0123456789abcdef' },
  'sessions:rename': { id: '0123456789abcdef0123456789abcdef', title: 'Greeting change' },
  'sessions:current': undefined,
  'sessions:clear': undefined,
  'sessions:acknowledge': undefined,
  'sessions:fork': { message: 0 },
  'turn:send': { text: 'Change the greeting.' },
  'images:add': { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
  'images:read': { sha256: 'a'.repeat(64) },
  'turn:stop': undefined,
  'turn:retry': undefined,
  'turn:steer': { text: 'Also check the tests.' },
  'context:compact': undefined,
  'context:editSummary': { text: 'The person asked for a list; nothing was changed.' },
  'approvals:answer': { requestId: '3f1c2b6e-8d4a-4f5b-9c7e-1a2b3c4d5e6f', approved: true },
  'mode:set': { mode: 'bypass' },
  'links:check': { url: 'https://example.com/docs' },
  'links:open': { id: '3f1c2b6e-8d4a-4f5b-9c7e-1a2b3c4d5e6f' },
  'rules:list': undefined,
  'rules:add': { scope: 'global', text: 'allow bash npm test' },
  'rules:remove': { id: 'r3' },
  'ledger:list': { session: '0123456789abcdef0123456789abcdef', search: 'npm' },
  'eval:pick': undefined,
  'eval:run': { source: 'suite', repeat: 2 },
  'eval:session': { case: 'injected-notes', run: 1 },
  'eval:stop': undefined,
};

/** Each is wrong for every channel: wrong type, unknown keys, or a near miss of one channel's shape. */
const MALFORMED: unknown[] = [
  null,
  42,
  'text',
  [],
  { unexpected: true },
  { apiKey: 7, path: 7, model: '', baseUrl: 'ftp://x', contextWindow: -1 },
  { id: '../../etc/passwd' },
  { id: '0123456789ABCDEF0123456789ABCDEF' },
  { id: '0123456789abcdef0123456789abcdef', sessionId: '0123456789abcdef0123456789abcdef' },
  { text: '   ' },
  { text: 42 },
  { text: 'hi', sessionId: '0123456789abcdef0123456789abcdef' },
  { requestId: 'not-a-uuid', approved: true },
  { requestId: '3f1c2b6e-8d4a-4f5b-9c7e-1a2b3c4d5e6f', approved: 'yes' },
  { requestId: '3f1c2b6e-8d4a-4f5b-9c7e-1a2b3c4d5e6f', approved: true, client: 'window-2' },
  { mode: 7 },
  { mode: 'bypass', confirmed: 'yes' },
  // The confirmation of the old two-step contract: a loosening is now confirmed by main alone.
  { mode: 'bypass', confirmationId: '7d3c8d9e-0000-4000-8000-000000000000' },
  { mode: 'x'.repeat(65) },
];

describe('the IPC gate', () => {
  it('passes a well-formed request from a trusted window to the service with the client taken from the sender', async () => {
    const { calls, target } = recordingTarget();
    const gate = gateWith(target);
    for (const channel of CHANNELS) {
      expect(await gate.handle(event(), channel, VALID[channel])).toEqual({ ok: true, value: { handled: channel } });
    }
    expect(calls.map((call) => call.channel)).toEqual(CHANNELS);
    expect(new Set(calls.map((call) => call.client))).toEqual(new Set([CLIENT]));
  });

  it.each(CHANNELS)('refuses malformed payloads on %s with a clear error and calls no service', async (channel) => {
    const { calls, target } = recordingTarget();
    const gate = gateWith(target);
    for (const payload of MALFORMED) {
      const result = await gate.handle(event(), channel, payload);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(new RegExp(`^Invalid request ${channel}: .+`));
    }
    expect(calls).toEqual([]);
  });

  it('refuses an unknown channel', async () => {
    const { calls, target } = recordingTarget();
    const result = await gateWith(target).handle(event(), 'fs:readFile', { path: '/etc/passwd' });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('Unknown request "fs:readFile"') });
    expect(calls).toEqual([]);
  });

  it('refuses a forged sender, even one that copies a trusted window id', async () => {
    const { calls, target } = recordingTarget();
    const forged = { id: 1 } as WebContents;
    const result = await gateWith(target).handle(event({ sender: forged }), 'settings:get', undefined);
    expect(result).toEqual({ ok: false, error: 'Refused settings:get: the request did not come from a Mino window.' });
    expect(calls).toEqual([]);
  });

  it('refuses a request from an embedded frame', async () => {
    const { calls, target } = recordingTarget();
    const result = await gateWith(target).handle(event({ parent: { url: 'app://mino/index.html' } }), 'settings:get', undefined);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('not an embedded frame') });
    expect(calls).toEqual([]);
  });

  it('refuses a request whose frame is gone', async () => {
    const { calls, target } = recordingTarget();
    expect(await gateWith(target).handle(event({ noFrame: true }), 'settings:get', undefined)).toMatchObject({ ok: false });
    expect(calls).toEqual([]);
  });

  it.each(['https://evil.example/index.html', 'app://other/index.html', 'file:///app/out/renderer/index.html', 'about:blank', 'http://localhost:5173/'])(
    'refuses a page at an unexpected origin: %s',
    async (url) => {
      const { calls, target } = recordingTarget();
      const result = await gateWith(target).handle(event({ url }), 'settings:get', undefined);
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^Refused settings:get: the page at .* is not Mino's\.$/) });
      expect(calls).toEqual([]);
    },
  );

  it('reads origins of custom schemes, which URL.origin reports as "null"', () => {
    expect(originOf('app://mino/index.html')).toBe('app://mino');
    expect(originOf('http://localhost:5173/src/main.tsx')).toBe('http://localhost:5173');
    expect(originOf('file:///x/index.html')).toBeNull();
    expect(originOf('garbage')).toBeNull();
  });

  it('turns a handler failure into a refusal carrying its message', async () => {
    const target: DispatchTarget = {
      handlers: { ...recordingTarget().target.handlers, 'settings:get': async () => Promise.reject(new Error('The settings file is not valid JSON.')) },
      hasClient: () => true,
    };
    expect(await gateWith(target).handle(event(), 'settings:get', undefined)).toEqual({ ok: false, error: 'The settings file is not valid JSON.' });
  });
});

describe('registerIpc', () => {
  it('registers exactly the contract channels, refuses extra arguments, and removes them all', async () => {
    const registered = new Map<string, (event: IpcEvent, ...args: unknown[]) => unknown>();
    const ipcMain = {
      handle: (channel: string, listener: (event: IpcEvent, ...args: unknown[]) => unknown) => registered.set(channel, listener),
      removeHandler: (channel: string) => registered.delete(channel),
    };
    const { calls, target } = recordingTarget();
    const remove = registerIpc(ipcMain as unknown as IpcMain, gateWith(target));
    expect([...registered.keys()].sort()).toEqual([...CHANNELS].sort());

    const listener = registered.get('projects:openRecent');
    expect(await listener?.(event(), { path: '/tmp/p' }, 'smuggled')).toMatchObject({ ok: false, error: expect.stringContaining('expected one argument') });
    expect(await listener?.(event(), { path: '/tmp/p' })).toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);

    remove();
    expect(registered.size).toBe(0);
  });
});
