// The one path from a transport to the service: known channel, attached
// client, input parsed by the channel's schema, result wrapped for the wire.
// The Electron adapter and the test bridge both call it after their own
// sender checks, so only the transport differs between them.
import {
  describeInvalidInput,
  INVOKE_CHANNELS,
  isInvokeChannel,
  type InvokeChannel,
  type InvokeInput,
  type InvokeOutput,
  type IpcResult,
} from '../../shared/ipc';
import { NOT_CONNECTED_MESSAGE, type ClientId } from './clients';

/** One handler per channel; adding a channel to the contract makes this type demand its handler. */
export type InvokeHandlers = {
  readonly [K in InvokeChannel]: (client: ClientId, input: InvokeInput<K>) => Promise<InvokeOutput<K>>;
};

export interface DispatchTarget {
  readonly handlers: InvokeHandlers;
  hasClient(client: ClientId): boolean;
}

export async function dispatchInvoke(target: DispatchTarget, client: ClientId, channel: unknown, raw: unknown): Promise<IpcResult<unknown>> {
  if (!isInvokeChannel(channel)) {
    return { ok: false, error: `Unknown request ${JSON.stringify(String(channel)).slice(0, 80)}: this version of Mino does not offer it.` };
  }
  if (!target.hasClient(client)) {
    return { ok: false, error: NOT_CONNECTED_MESSAGE };
  }
  const parsed = INVOKE_CHANNELS[channel].input.safeParse(raw);
  if (!parsed.success) return { ok: false, error: describeInvalidInput(channel, parsed.error) };
  try {
    const handler = target.handlers[channel] as (client: ClientId, input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(client, parsed.data) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : `Mino failed to handle ${channel}: ${String(error)}` };
  }
}
