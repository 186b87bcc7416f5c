// The Decisions panel: the project's decision ledger, newest first, with
// what decided each call (a protected path, a rule, the mode, the person),
// filters (session, tool, decision) and a search. A rule an entry names can
// be revoked from here, as in Settings › Rules. A ledger can hold thousands
// of entries: main sends at most LEDGER_PAGE, and the table renders a page
// of rows at a time.
import { useEffect, useId, useRef, useState } from 'react';
import { ledgerByText, ledgerRules, type LedgerEntry } from '../../../../shared/ledger';
import type { LedgerView } from '../../../../shared/rules';
import type { RuleRef } from '../../../../shared/domain';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ModalDialog } from '../../components/ModalDialog';
import { decisionBadge, decisionText, entryTime, LEDGER_ROWS, ledgerCountLine, NO_FILTERS, shortSession, type LedgerFilters } from './ledgerRows';
import { RuleOutcomeLine } from './RuleOutcome';
import { useLedger } from './useLedger';
import { useRules, type RulesState } from './useRules';
import './rules.css';

export function DecisionsDialog({ onClose }: { onClose(): void }) {
  const ids = useId();
  const close = useRef<HTMLButtonElement>(null);
  const [filters, setFilters] = useState<LedgerFilters>(NO_FILTERS);
  const ledger = useLedger(filters);
  const rules = useRules(true);
  const [rows, setRows] = useState(LEDGER_ROWS);
  // A new answer starts again at the first page.
  useEffect(() => setRows(LEDGER_ROWS), [ledger.view]);

  return (
    <ModalDialog labelledBy={`${ids}-title`} onDismiss={onClose} initialFocus={close} className="decisions" testId="decisions-dialog">
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Decisions</h2>
        <button type="button" className="ghost" ref={close} onClick={onClose}>
          Close
        </button>
      </header>
      <p className="muted small">
        Every call&apos;s decision in this project, and what decided it: a protected path, one of your rules, the permission mode, or you.
        {ledger.view && (
          <>
            {' '}
            Kept in <span className="session-id">{ledger.view.file}</span>.
          </>
        )}
      </p>
      <FilterControls ids={ids} view={ledger.view} filters={filters} onChange={setFilters} />
      <ErrorMessage text={ledger.error ?? rules.loadError} />
      {ledger.view && ledger.view.problems.length > 0 && (
        <ul className="error small" aria-label="Damaged ledger lines, skipped" data-testid="ledger-problems">
          {ledger.view.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <RuleOutcomeLine outcome={rules.outcome} working={rules.working} />
      {ledger.view && <LedgerTable ids={ids} view={ledger.view} rows={rows} rules={rules} />}
      <p className="muted small" role="status" data-testid="ledger-count" aria-busy={ledger.loading}>
        {ledger.view && (ledger.view.total === 0 ? 'No decisions yet: each tool call the model makes in this project is recorded here.' : ledgerCountLine(Math.min(rows, ledger.view.entries.length), ledger.view))}
      </p>
      {ledger.view && rows < ledger.view.entries.length && (
        <div className="actions">
          <button type="button" onClick={() => setRows((n) => n + LEDGER_ROWS)}>
            Show {Math.min(LEDGER_ROWS, ledger.view.entries.length - rows)} more
          </button>
        </div>
      )}
    </ModalDialog>
  );
}

interface FilterControlsProps {
  ids: string;
  view: LedgerView | null;
  filters: LedgerFilters;
  onChange(filters: LedgerFilters): void;
}

function FilterControls({ ids, view, filters, onChange }: FilterControlsProps) {
  const set = (change: Partial<LedgerFilters>) => onChange({ ...filters, ...change });
  return (
    <div className="ledger-filters" role="search" aria-label="Filter decisions">
      <label htmlFor={`${ids}-session`}>Session</label>
      <select id={`${ids}-session`} value={filters.session} onChange={(event) => set({ session: event.target.value })}>
        <option value="">All sessions</option>
        {view?.sessions.map((session) => (
          <option key={session} value={session}>
            {shortSession(session)}
          </option>
        ))}
      </select>
      <label htmlFor={`${ids}-tool`}>Tool</label>
      <select id={`${ids}-tool`} value={filters.tool} onChange={(event) => set({ tool: event.target.value })}>
        <option value="">All tools</option>
        {view?.tools.map((tool) => (
          <option key={tool} value={tool}>
            {tool}
          </option>
        ))}
      </select>
      <label htmlFor={`${ids}-decision`}>Decision</label>
      <select id={`${ids}-decision`} value={filters.decision} onChange={(event) => set({ decision: event.target.value as LedgerFilters['decision'] })}>
        <option value="">All decisions</option>
        <option value="allow">Allowed</option>
        <option value="ask">Asked</option>
        <option value="deny">Denied</option>
        <option value="unknown">Result unknown</option>
      </select>
      <label htmlFor={`${ids}-search`}>Search</label>
      <input
        id={`${ids}-search`}
        type="search"
        value={filters.search}
        placeholder="command, path, rule…"
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => set({ search: event.target.value })}
      />
    </div>
  );
}

function LedgerTable({ ids, view, rows, rules }: { ids: string; view: LedgerView; rows: number; rules: RulesState }) {
  if (view.entries.length === 0) {
    return view.total > 0 ? <p className="muted">No decision matches the filters and the search.</p> : null;
  }
  return (
    <table className="ledger-table" aria-labelledby={`${ids}-title`} data-testid="ledger-table">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Session</th>
          <th scope="col">Tool</th>
          <th scope="col">Target</th>
          <th scope="col">Decision</th>
          <th scope="col">Decided by</th>
        </tr>
      </thead>
      <tbody>
        {view.entries.slice(0, rows).map((entry) => (
          <LedgerRow key={`${entry.call_id}-${entry.at}-${entry.decision}-${entry.answer ? 'answer' : 'decision'}`} entry={entry} rules={rules} />
        ))}
      </tbody>
    </table>
  );
}

function LedgerRow({ entry, rules }: { entry: LedgerEntry; rules: RulesState }) {
  return (
    <tr data-testid="ledger-entry" data-decision={entry.decision}>
      <td>
        <time dateTime={entry.at}>{entryTime(entry.at)}</time>
      </td>
      <td className="session-id" title={entry.session}>
        {shortSession(entry.session)}
      </td>
      <td>{entry.tool}</td>
      <td className="ledger-target">{entry.target !== undefined && <code>{entry.target}</code>}</td>
      <td>
        <span className={decisionBadge(entry)}>{decisionText(entry)}</span>
      </td>
      <td data-testid="ledger-by">
        {ledgerByText(entry.by)}{' '}
        {ledgerRules(entry.by).map((rule) => (
          <RevokeButton key={rule.id} rule={rule} rules={rules} />
        ))}
      </td>
    </tr>
  );
}

/** Revoke for a rule still in force; a rule already removed says so instead. */
function RevokeButton({ rule, rules }: { rule: RuleRef; rules: RulesState }) {
  const gone = rules.view !== null && !rules.view.rules.some((candidate) => candidate.id === rule.id);
  if (gone) return <span className="muted small ledger-revoked"> ({rule.id} removed)</span>;
  return (
    <button type="button" className="small ledger-revoke" disabled={rules.working} title={`Remove rule ${rule.id} "${rule.text}"`} onClick={() => void rules.remove(rule.id)}>
      Revoke {rule.id}
    </button>
  );
}
