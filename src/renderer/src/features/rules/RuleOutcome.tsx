// What the last rule change came to, in main's words: saved (a success),
// not confirmed in main's dialog (a plain status: nothing happened), or
// refused (an error to notice, with why).
import type { RuleOutcome } from './useRules';

export function RuleOutcomeLine({ outcome, working }: { outcome: RuleOutcome | null; working: boolean }) {
  if (working) {
    return (
      <p className="muted small" role="status" data-testid="rule-outcome">
        Working… a change that lets more run without asking waits for your answer in Mino&apos;s own dialog.
      </p>
    );
  }
  if (!outcome) return null;
  if (outcome.status === 'error') {
    return (
      <p className="error" role="alert" data-testid="rule-outcome" data-status="error">
        {outcome.message}
      </p>
    );
  }
  return (
    <p className={outcome.status === 'changed' ? 'success' : 'muted'} role="status" data-testid="rule-outcome" data-status={outcome.status}>
      {outcome.message}
    </p>
  );
}
