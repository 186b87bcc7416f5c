// Builds `window.mino` from the contract over any transport that can invoke a
// channel and listen to one. The preload passes Electron's ipcRenderer; the
// result exposes intent-level functions only, and callbacks get the payload
// alone, never a transport event.
import { EVENT_CHANNELS, INVOKE_CHANNELS, invokeArgument, type InvokeChannel, type MinoApi } from '../shared/ipc';

export interface ApiTransport {
  invoke(channel: string, input: unknown): Promise<unknown>;
  /** Delivers each payload of `channel` to `listener`; returns a function that stops it. */
  listen(channel: string, listener: (payload: unknown) => void): () => void;
  /** Where a dropped File is on disk, '' when it has none (Electron: webUtils.getPathForFile). */
  pathForFile(file: unknown): string;
}

export function buildMinoApi(transport: ApiTransport): MinoApi {
  const api: Record<string, unknown> = {};
  for (const [channel, spec] of Object.entries(INVOKE_CHANNELS)) {
    // Exactly one argument crosses, so extra arguments cannot smuggle anything.
    api[spec.method] =
      invokeArgument(channel as InvokeChannel) === 'droppedFile'
        ? // The path is read here, never taken from the page: it can only be where a real dropped item is.
          (file?: unknown) => transport.invoke(channel, { path: transport.pathForFile(file) })
        : (input?: unknown) => transport.invoke(channel, input);
  }
  for (const [channel, spec] of Object.entries(EVENT_CHANNELS)) {
    api[spec.subscribe] = (callback: unknown) => {
      if (typeof callback !== 'function') throw new TypeError(`${spec.subscribe} needs a callback function.`);
      return transport.listen(channel, (payload) => callback(payload));
    };
  }
  return Object.freeze(api) as unknown as MinoApi;
}
