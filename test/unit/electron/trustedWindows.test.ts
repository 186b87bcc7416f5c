import type { BrowserWindow, Dialog, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { createFolderPicker } from '../../../src/main/electron/dialogs';
import { TrustedWindows } from '../../../src/main/electron/trustedWindows';
import type { ClientId, EventSink } from '../../../src/main/service/clients';

function fakeWindow(id: number) {
  const sent: Array<[string, unknown]> = [];
  let closed: (() => void) | undefined;
  const webContents = { id, isDestroyed: () => false, send: (channel: string, payload: unknown) => sent.push([channel, payload]) };
  const window = { webContents, on: (event: string, listener: () => void) => event === 'closed' && (closed = listener) };
  return { window: window as unknown as BrowserWindow, contents: webContents as unknown as WebContents, sent, close: () => closed?.() };
}

function fakeHost() {
  const attached = new Map<ClientId, EventSink>();
  return { attached, attachClient: (client: ClientId, emit: EventSink) => attached.set(client, emit), detachClient: (client: ClientId) => attached.delete(client) };
}

describe('trusted windows', () => {
  it('makes each window a client, delivers its events on the event channel, and detaches it on close', () => {
    const host = fakeHost();
    const windows = new TrustedWindows(host);
    const one = fakeWindow(7);
    const client = windows.track(one.window);
    expect(windows.clientFor(one.contents)).toBe(client);
    expect(windows.windowFor(client)).toBe(one.window);
    host.attached.get(client)?.('projects:recentChanged', []);
    expect(one.sent).toEqual([['mino-event:projects:recentChanged', []]]);
    one.close();
    expect(host.attached.has(client)).toBe(false);
    expect(windows.clientFor(one.contents)).toBeUndefined();
  });

  it('does not trust a different object that claims a tracked window id', () => {
    const windows = new TrustedWindows(fakeHost());
    windows.track(fakeWindow(7).window);
    expect(windows.clientFor(fakeWindow(7).contents)).toBeUndefined();
  });
});

describe('the folder picker', () => {
  it('asks for one directory, parented to the client window, and returns null when cancelled', async () => {
    const asked: unknown[][] = [];
    const answers = [{ canceled: false, filePaths: ['/home/me/project'] }, { canceled: true, filePaths: [] }];
    const dialog = { showOpenDialog: async (...args: unknown[]) => (asked.push(args), answers.shift()) };
    const window = fakeWindow(3).window;
    const pick = createFolderPicker(dialog as unknown as Dialog, () => window);
    expect(await pick('window-3' as ClientId)).toBe('/home/me/project');
    expect(await pick('window-3' as ClientId)).toBeNull();
    expect(asked[0][0]).toBe(window);
    expect(asked[0][1]).toMatchObject({ properties: ['openDirectory'] });
  });
});
