// The port through which an "ask" reaches a person: the desktop dialog, the
// CLI's --approve flag, or a test. Anything but an explicit yes is a no.
import type { Confirmation } from '../../../shared/domain';
import { errorText, log } from '../log/log';

/** Where an ask stands among the asks of one model response ("1 of 3"); absent when it is the only one. */
export interface AskPosition {
  index: number;
  total: number;
}

export interface ApprovalRequest {
  callId: string;
  toolName: string;
  confirmation: Confirmation;
  position?: AskPosition;
}

export interface Approver {
  /** Resolves true only for an explicit approval. Rejections and aborts count as denial. */
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean>;
}

/** Asks the approver, turning errors and aborts into a denial. */
export async function askApproval(approver: Approver, request: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return false;
  try {
    return (await approver.approve(request, signal)) === true;
  } catch (error) {
    log.warn('approval.failed_as_denied', { tool: request.toolName, call: request.callId, error: errorText(error) });
    return false;
  }
}
