// Where a fork came from, on its line in the session list: the session it was
// continued from (Edit and resend), by what that one is called now.
import type { SessionSummary } from '../../../../shared/domain';

export function ForkOrigin({ session }: { session: SessionSummary }) {
  if (!session.forkedFrom) return null;
  const { label } = session.forkedFrom;
  return (
    <span className="sidebar-detail muted small" data-testid="fork-origin" title={`Continued from session ${session.forkedFrom.id}`}>
      {label === null ? 'Forked from a session that is gone' : `Forked from “${label}”`}
    </span>
  );
}
