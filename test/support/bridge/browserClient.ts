// The browser side of the test bridge: defines window.mino over the socket,
// with the same functions the preload exposes. Playwright serialises this
// function into the page (addInitScript), so it must not reference anything
// outside its own body.
export interface BrowserBridgeConfig {
  /** ws://127.0.0.1:PORT/mino-bridge?token=... */
  url: string;
  /** From apiShape(): [method, channel] and [subscribe, channel] pairs. */
  shape: { invokes: Array<[string, string]>; events: Array<[string, string]> };
}

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

  const api: Record<string, unknown> = {};
  for (const [method, channel] of config.shape.invokes) {
    api[method] = (input?: unknown) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, { resolve });
        const message = JSON.stringify({ id, channel, input });
        if (socket.readyState === WebSocket.OPEN) socket.send(message);
        else queue.push(message);
      });
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
