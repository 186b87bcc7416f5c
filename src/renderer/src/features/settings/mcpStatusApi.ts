// The one request of Settings' MCP section, unwrapped like every other call in lib/api.
import type { McpStatus } from '../../../../shared/ipc';
import { ApiError } from '../../lib/api';

export async function getMcpStatus(): Promise<McpStatus> {
  if (!('mino' in window) || !window.mino) throw new ApiError('This page is not connected to Mino. Start it from the Mino app.');
  const result = await window.mino.getMcpStatus();
  if (!result.ok) throw new ApiError(result.error);
  return result.value;
}
