// The browser side of the test bridge: defines window.mino over the socket,
// with the same functions the preload exposes. Playwright serialises this
// function into the page (addInitScript), so it must not reference anything
// outside its own body.
//
// One fake lives here, at the edge: a File in a browser has no place on disk
// (Electron's preload asks webUtils.getPathForFile), so a dropped File's path
// is looked up by its name in `window.__minoDroppedPaths`, which a test sets
// (see DROPPED_PATHS_GLOBAL); a name it did not set has no path, as a File a
// page made itself has none in the app.
export interface BrowserBridgeConfig {
  /** ws://127.0.0.1:PORT/mino-bridge?token=... */
  url: string;
  /** From apiShape(): [method, channel, argument] and [subscribe, channel] pairs. */
  shape: { invokes: Array<[string, string, string]>; events: Array<[string, string]> };
}

/** The page global a test fills with { fileName: absolutePath } before it drops Files of those names. */
export const DROPPED_PATHS_GLOBAL = '__minoDroppedPaths';

export function installMinoOverSocket(config: BrowserBridgeConfig): void {
  type Pending = { resolve(value: unknown): void };
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const queue: string[] = [];
  let nextId = 1;
  const socket = new WebSocket(config.url);

  socket.addEventListener('open', () => {
    for (const message of queue.splice(0)) socket.send(message);
  });
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { type: string; id?: number; result?: unknown; event?: string; payload?: unknown };
    if (message.type === 'result' && typeof message.id === 'number') {
      pending.get(message.id)?.resolve(message.result);
      pending.delete(message.id);
    } else if (message.type === 'event' && typeof message.event === 'string') {
      for (const listener of listeners.get(message.event) ?? []) listener(message.payload);
    }
  });
  socket.addEventListener('close', () => {
    for (const entry of pending.values()) entry.resolve({ ok: false, error: 'The connection to Mino closed.' });
    pending.clear();
  });

  const pathForFile = (file: unknown): string => {
    const paths = (globalThis as Record<string, unknown>)['__minoDroppedPaths'] as Record<string, string> | undefined;
    return file instanceof File && paths && Object.hasOwn(paths, file.name) ? paths[file.name] : '';
  };

  const api: Record<string, unknown> = {};
  for (const [method, channel, argument] of config.shape.invokes) {
    const send = (input?: unknown) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, { resolve });
        // Bytes (an image's) cross as base64 in a marked object, as Electron's IPC carries a Uint8Array itself; the server revives them.
        const message = JSON.stringify({ id, channel, input }, (_key, value: unknown) => {
          if (!(value instanceof Uint8Array)) return value;
          let binary = '';
          for (let i = 0; i < value.length; i += 0x8000) binary += String.fromCharCode(...value.subarray(i, i + 0x8000));
          return { __minoBytes: btoa(binary) };
        });
        if (socket.readyState === WebSocket.OPEN) socket.send(message);
        else queue.push(message);
      });
    api[method] = argument === 'droppedFile' ? (file?: unknown) => send({ path: pathForFile(file) }) : send;
  }
  for (const [subscribe, channel] of config.shape.events) {
    api[subscribe] = (callback: (payload: unknown) => void) => {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      const listener = (payload: unknown) => callback(payload);
      set.add(listener);
      return () => set.delete(listener);
    };
  }
  Object.defineProperty(globalThis, 'mino', { value: Object.freeze(api), writable: false, configurable: false });
}
