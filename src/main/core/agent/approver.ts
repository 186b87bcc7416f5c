// The port through which an "ask" reaches a person: the desktop dialog, the
// CLI's --approve flag, or a test. Anything but an explicit yes is a no.
import type { Confirmation, RuleRef } from '../../../shared/domain';
import type { ReviewSubject } from '../../../shared/review';
import { errorText, log } from '../log/log';
import type { WatchedTarget } from '../tools/types';
import type { Revision } from './review';

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
  /** The rule "Always allow" would save for the project (ruleService.ts: alwaysAllowRule); absent when none is offered. */
  alwaysAllow?: string;
  /** The change by hunk, which the person may review before approving (file writes). */
  review?: ReviewSubject;
  /** The file the call changes, for an approver that can say it changed while the ask is open. */
  target?: WatchedTarget;
}

/** An answer: approved or not, and the rule the person saved with it ("Always allow"), for the ledger. */
export interface ApprovalOutcome {
  approved: boolean;
  savedRule?: RuleRef;
  /** Approved: the person's reviewed version, to write instead of the proposal (main computed it and its digest). */
  revision?: Revision;
  /** Not approved because the target changed on disk while the ask was open (the person was told). */
  targetChanged?: true;
}

export interface Approver {
  /** Resolves true (or an outcome approved: true) only for an explicit approval. Rejections and aborts count as denial. */
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean | ApprovalOutcome>;
}

/** Asks the approver, turning errors, aborts and anything but an explicit yes into a denial. */
export async function askApproval(approver: Approver, request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalOutcome> {
  if (signal?.aborted) return { approved: false };
  try {
    const answer = await approver.approve(request, signal);
    if (answer === true) return { approved: true };
    if (typeof answer === 'object' && answer !== null && answer.approved === true) {
      return { approved: true, ...(answer.savedRule ? { savedRule: answer.savedRule } : {}), ...(answer.revision ? { revision: answer.revision } : {}) };
    }
    if (typeof answer === 'object' && answer !== null && answer.targetChanged === true) return { approved: false, targetChanged: true };
    return { approved: false };
  } catch (error) {
    log.warn('approval.failed_as_denied', { tool: request.toolName, call: request.callId, error: errorText(error) });
    return { approved: false };
  }
}
