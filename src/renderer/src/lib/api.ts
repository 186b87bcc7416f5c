// The renderer's only way to reach main: window.mino, derived from the IPC
// contract (src/shared/ipc.ts). Every request function resolves to its value
// or throws an ApiError carrying the person-facing message; event functions
// are passed through. Nothing here is written per channel, so a channel added
// to the contract is here at once, and one removed is a compile error where
// it was used.
import { apiShape, type IpcResult, type MinoApi } from '../../../shared/ipc';

export class ApiError extends Error {
  override name = 'ApiError';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A request function of window.mino, resolving to its value instead of an IpcResult. */
type Unwrapped<F> = F extends (...args: infer A) => Promise<IpcResult<infer T>> ? (...args: A) => Promise<T> : F;

export type RendererApi = { readonly [K in keyof MinoApi]: Unwrapped<MinoApi[K]> };

function bridge(): MinoApi {
  if (!('mino' in window) || !window.mino) {
    throw new ApiError('This page is not connected to Mino. Start it from the Mino app.');
  }
  return window.mino;
}

type AnyFunction = (...args: unknown[]) => unknown;

function buildApi(): RendererApi {
  const { invokes, events } = apiShape();
  const api: Record<string, AnyFunction> = {};
  for (const [method] of invokes) {
    api[method] = async (...args: unknown[]) => {
      const result = (await (bridge()[method as keyof MinoApi] as AnyFunction)(...args)) as IpcResult<unknown>;
      if (!result.ok) throw new ApiError(result.error);
      return result.value;
    };
  }
  // Looked up on each call: the bridge may be installed after this module loads (the test bridge).
  for (const [subscribe] of events) api[subscribe] = (...args: unknown[]) => (bridge()[subscribe as keyof MinoApi] as AnyFunction)(...args);
  return Object.freeze(api) as unknown as RendererApi;
}

export const api: RendererApi = buildApi();
