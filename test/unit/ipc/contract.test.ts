import { describe, expect, it } from 'vitest';
import { buildMinoApi } from '../../../src/preload/buildApi';
import { apiShape, EVENT_CHANNELS, INVOKE_CHANNELS, type MinoApi } from '../../../src/shared/ipc';

/** Stands for a File the person dropped: only the transport (the preload) knows where it is. */
class FakeDroppedFile {
  constructor(readonly where: string) {}
}

function recordingTransport() {
  const invoked: Array<[string, unknown]> = [];
  const listeners = new Map<string, (payload: unknown) => void>();
  return {
    invoked,
    listeners,
    transport: {
      invoke: async (channel: string, input: unknown) => (invoked.push([channel, input]), { ok: true, value: null }),
      listen: (channel: string, listener: (payload: unknown) => void) => {
        listeners.set(channel, listener);
        return () => listeners.delete(channel);
      },
      pathForFile: (file: unknown) => (file instanceof FakeDroppedFile ? file.where : ''),
    },
  };
}

describe('the contract', () => {
  it('names each renderer function once', () => {
    const names = [...Object.values(INVOKE_CHANNELS).map((c) => c.method), ...Object.values(EVENT_CHANNELS).map((e) => e.subscribe)];
    expect(new Set(names).size).toBe(names.length);
    expect(apiShape().invokes).toHaveLength(Object.keys(INVOKE_CHANNELS).length);
  });
});

describe('window.mino built from the contract', () => {
  it('has one intent-level function per channel and event, and no generic invoke or on', () => {
    const api = buildMinoApi(recordingTransport().transport);
    const expected = [...Object.values(INVOKE_CHANNELS).map((c) => c.method), ...Object.values(EVENT_CHANNELS).map((e) => e.subscribe)];
    expect(Object.keys(api).sort()).toEqual(expected.sort());
    for (const generic of ['invoke', 'on', 'send', 'ipcRenderer', 'emit']) expect(generic in api).toBe(false);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('sends exactly one argument on the named channel', async () => {
    const { transport, invoked } = recordingTransport();
    const api: MinoApi = buildMinoApi(transport);
    await api.openRecentProject({ path: '/p' });
    await (api.getSettings as (...args: unknown[]) => unknown)('smuggled', 'extra');
    expect(invoked).toEqual([
      ['projects:openRecent', { path: '/p' }],
      ['settings:get', 'smuggled'],
    ]);
  });

  it('sends a dropped file as the path the transport finds for it, never a path the page names', async () => {
    const { transport, invoked } = recordingTransport();
    const api: MinoApi = buildMinoApi(transport);
    await api.openDroppedProject(new FakeDroppedFile('/home/p/project'));
    await api.openDroppedProject({ path: '/etc' });
    await api.openDroppedProject('/etc');
    await (api.openDroppedProject as (...args: unknown[]) => unknown)(new FakeDroppedFile('/a'), { path: '/etc' });
    expect(invoked).toEqual([
      ['projects:openDropped', { path: '/home/p/project' }],
      ['projects:openDropped', { path: '' }],
      ['projects:openDropped', { path: '' }],
      ['projects:openDropped', { path: '/a' }],
    ]);
  });

  it('gives event callbacks the payload alone and lets them unsubscribe', () => {
    const { transport, listeners } = recordingTransport();
    const api = buildMinoApi(transport);
    const received: unknown[][] = [];
    const stop = api.onSettingsChanged((...args: unknown[]) => received.push(args));
    listeners.get('settings:changed')?.({ settings: {}, path: '/x' });
    expect(received).toEqual([[{ settings: {}, path: '/x' }]]);
    stop();
    expect(listeners.has('settings:changed')).toBe(false);
    expect(() => (api.onSettingsChanged as (cb: unknown) => void)('not a function')).toThrow(TypeError);
  });
});
