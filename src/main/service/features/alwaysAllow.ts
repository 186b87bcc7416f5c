// An answer to an ask, and "Always allow": approve the call and save the rule
// the ask offered (core: ruleService.ts alwaysAllowRule), for the window's
// project. The page only says "always"; the rule is the one main offered with
// the ask, and it is saved only after the person's yes in main's own dialog
// showing it. Cancelling there leaves the ask waiting, its dialog open.
import { PERSON_RULE_GRAMMAR } from '../../core/agent/personRuleGrammar';
import { refOf } from '../../core/rules/rules';
import { addPersonRule } from '../../core/rules/ruleService';
import type { ApprovalAnswer, ApprovalAnswerResult } from '../../../shared/sessions';
import type { ClientId } from '../clients';
import type { ApprovalBroker } from './approvals';
import { confirmOnce, refusalText, type RulesDeps } from './rules';

const ENDED = 'That request had already ended, so your answer was not used. Nothing ran because of it.';

export async function answerApproval(deps: RulesDeps & { broker: ApprovalBroker }, client: ClientId, input: ApprovalAnswer, now: Date): Promise<ApprovalAnswerResult> {
  if (input.review !== undefined && input.approved) {
    // A reviewed change is approved once, as the person left it; a rule would approve the model's later proposals unseen.
    if (input.alwaysAllow === true) return { accepted: false, open: true, message: '"Always allow" approves changes as proposed; after changing this one, approve it once, or deny it.' };
    return deps.broker.answerReviewed(client, input.requestId, input.review);
  }
  if (input.alwaysAllow !== true) return { accepted: deps.broker.answer(client, input.requestId, input.approved) };
  const shown = deps.broker.shownRequest(client, input.requestId);
  if (!shown) return { accepted: false, message: ENDED };
  const waiting = (message: string): ApprovalAnswerResult => ({ accepted: false, open: true, message });
  const rule = shown.request.alwaysAllow;
  if (!input.approved) return waiting('"Always allow" approves the call; it cannot go with a denial. Approve, Always allow or Deny.');
  if (rule === undefined) return waiting('This request offers no rule to always allow. Approve it once, or deny it.');
  const project = deps.clients.state(client).project?.path;
  if (project === undefined) return waiting('This window has no project to save the rule for. Approve the call once, or deny it.');

  const answer = await confirmOnce(deps, client, {
    title: 'Always allow?',
    message: `Approve this call and save the rule: ${rule}`,
    detail: `From now on, in ${project}, calls this rule covers run without asking you, in every permission mode. You can remove it in Settings › Rules, or with "mino rules remove".`,
    confirmLabel: 'Save rule and approve',
  });
  if (answer !== 'yes') return waiting(`${refusalText(answer, `the rule "${rule}"`)} Approve this call once, or deny it.`);
  // The ask may have ended while main's dialog was open (the turn stopped): then nothing is saved either.
  if (!deps.broker.shownRequest(client, input.requestId)) return { accepted: false, message: 'The request ended before you answered, so the rule was not saved and nothing ran.' };
  const added = await addPersonRule(deps.homeDir, { project }, rule, PERSON_RULE_GRAMMAR, now);
  if (!added.ok) return waiting(`${added.reason} Nothing was saved. Approve this call once, or deny it.`);
  const accepted = deps.broker.answer(client, input.requestId, { approved: true, savedRule: refOf(added.rule) });
  const saved = `Saved ${added.rule.id} "${added.rule.text}" for this project.`;
  return accepted ? { accepted, message: saved } : { accepted, message: `${saved} The request had ended meanwhile, so nothing ran because of it.` };
}
