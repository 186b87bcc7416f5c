// How the Decisions panel words the ledger: the query its filters make, the
// decision and session in short, and the line saying how much is shown.
// Pure, so the wording is tested without a page.
import type { LedgerEntry } from '../../../../shared/ledger';
import { LEDGER_PAGE, type LedgerQuery, type LedgerView } from '../../../../shared/rules';
import { withThousands } from '../../../../shared/formatNumber';

/** The panel's filters as the person set them; '' means "any". */
export interface LedgerFilters {
  session: string;
  tool: string;
  decision: '' | NonNullable<LedgerQuery['decision']>;
  search: string;
}

export const NO_FILTERS: LedgerFilters = { session: '', tool: '', decision: '', search: '' };

/** Rows rendered at first, and added by each "Show more": a page of the (at most LEDGER_PAGE) entries loaded. */
export const LEDGER_ROWS = 100;

/** The query the filters make: only the filters set, the search trimmed. */
export function ledgerQuery(filters: LedgerFilters): LedgerQuery {
  const search = filters.search.trim();
  return {
    ...(filters.session ? { session: filters.session } : {}),
    ...(filters.tool ? { tool: filters.tool } : {}),
    ...(filters.decision ? { decision: filters.decision } : {}),
    ...(search ? { search } : {}),
  };
}

/** A session id short enough for a table cell (its first 8 characters, as the sidebar shows it). */
export function shortSession(id: string): string {
  return id.slice(0, 8);
}

const DECISION_WORDS: Record<LedgerEntry['decision'], string> = {
  allow: 'allowed',
  ask: 'asked',
  deny: 'denied',
  unknown: 'result unknown',
};

export function decisionText(entry: Pick<LedgerEntry, 'decision'>): string {
  return DECISION_WORDS[entry.decision];
}

export function decisionBadge(entry: Pick<LedgerEntry, 'decision'>): string {
  if (entry.decision === 'allow') return 'badge badge-ok';
  if (entry.decision === 'deny') return 'badge badge-denied';
  return 'badge badge-neutral';
}

function decisions(count: number): string {
  return `${withThousands(count)} ${count === 1 ? 'decision' : 'decisions'}`;
}

/**
 * How much of the ledger the panel shows: all the matches, or "Showing N of
 * M" when fewer rows are shown than matched, saying why (a page at a time,
 * or only the newest LEDGER_PAGE loaded). Null for an empty ledger.
 */
export function ledgerCountLine(shown: number, view: Pick<LedgerView, 'entries' | 'matched' | 'total'>): string | null {
  if (view.total === 0) return null;
  const ofAll = view.matched < view.total ? ` (of ${decisions(view.total)} in this project)` : '';
  if (shown >= view.matched) return `${decisions(view.matched)}${view.matched < view.total ? ' match' : ''}${ofAll}, newest first.`;
  const capped =
    view.entries.length < view.matched
      ? ` Only the newest ${withThousands(LEDGER_PAGE)} are loaded: narrow the filters or the search to find older ones.`
      : '';
  return `Showing ${withThousands(shown)} of ${decisions(view.matched)}${ofAll}, newest first.${capped}`;
}

/** When an entry was decided, to the second, in the person's locale; the text as written when it is not a time. */
export function entryTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
