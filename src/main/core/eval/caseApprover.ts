// How a case's asks are answered: `approve: never` denies every ask, `always`
// approves every one, a list of tool names approves asks about those tools
// only. Like the CLI's --approve, it answers without a person; every answer is
// saved (the ledger, the session log) as a person's would be.
import type { Approver } from '../agent/approver';
import type { EvalCase } from './caseSchema';

export function caseApprover(approve: EvalCase['approve']): Approver {
  return {
    approve: async (request) => (approve === 'always' ? true : approve === 'never' ? false : approve.includes(request.toolName)),
  };
}
