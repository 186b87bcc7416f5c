// The one validated entry point for renderer requests. It refuses by default:
// a request passes only from a window main created, from its top-level frame,
// at the expected origin, on a channel of the contract, with input its schema
// accepts. Who is asking comes from the sender, never from the payload.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { INVOKE_CHANNELS, isInvokeChannel, type IpcResult } from '../../shared/ipc';
import { dispatchInvoke, type DispatchTarget } from '../service/dispatch';
import type { ClientId } from '../service/clients';
import { log } from '../core/log/log';

/** "scheme://host[:port]" of a URL, or null; unlike URL.origin it also works for app://. */
export function originOf(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.host ? `${url.protocol}//${url.host}` : null;
  } catch {
    return null;
  }
}

export interface IpcGateDeps {
  target: DispatchTarget;
  /** The client of a window main created, or undefined for any other sender. */
  clientFor(sender: WebContents): ClientId | undefined;
  /** Origins the renderer is served from (app://mino, or the dev server). */
  allowedOrigins: readonly string[];
}

export type IpcEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

export interface IpcGate {
  handle(event: IpcEvent, channel: string, input: unknown): Promise<IpcResult<unknown>>;
}

function refuse(error: string): IpcResult<never> {
  return { ok: false, error };
}

export function createIpcGate(deps: IpcGateDeps): IpcGate {
  return {
    async handle(event, channel, input) {
      // Every refusal leaves a line: a page asking for what it may not is a bug or an attack.
      const refused = (error: string) => {
        log.warn('ipc.refused', { channel: String(channel).slice(0, 80), sender: event.sender?.id, frame: event.senderFrame?.url?.slice(0, 200), reason: error });
        return refuse(error);
      };
      if (!isInvokeChannel(channel)) return refused(`Unknown request "${String(channel).slice(0, 80)}": this version of Mino does not offer it.`);
      const client = deps.clientFor(event.sender);
      if (client === undefined) return refused(`Refused ${channel}: the request did not come from a Mino window.`);
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null) return refused(`Refused ${channel}: only the window's own page may make requests, not an embedded frame.`);
      const origin = originOf(frame.url);
      if (origin === null || !deps.allowedOrigins.includes(origin)) {
        return refused(`Refused ${channel}: the page at ${origin ?? 'an unknown address'} is not Mino's.`);
      }
      return dispatchInvoke(deps.target, client, channel, input);
    },
  };
}

function refuseExtra(channel: string, count: number): IpcResult<never> {
  const error = `Invalid request ${channel}: expected one argument, got ${count}.`;
  log.warn('ipc.refused', { channel, reason: error });
  return refuse(error);
}

/** Registers every channel of the contract on ipcMain through the gate; returns a function that removes them. */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, gate: IpcGate): () => void {
  const channels = Object.keys(INVOKE_CHANNELS);
  for (const channel of channels) {
    ipcMain.handle(channel, (event, input: unknown, ...extra: unknown[]) =>
      extra.length > 0 ? refuseExtra(channel, extra.length + 1) : gate.handle(event, channel, input),
    );
  }
  return () => channels.forEach((channel) => ipcMain.removeHandler(channel));
}
