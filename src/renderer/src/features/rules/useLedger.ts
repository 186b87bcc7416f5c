// The project's decision ledger as the Decisions panel asks for it: fetched
// again whenever the filters change (the search a moment after the last key,
// so typing a word reads the ledger once, not once a letter), and on reload;
// an answer to an older query is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LedgerView } from '../../../../shared/rules';
import { api, errorMessage } from '../../lib/api';
import { ledgerQuery, type LedgerFilters } from './ledgerRows';

/** How long the search waits after a key before it asks. */
const SEARCH_PAUSE_MS = 250;

export interface LedgerState {
  view: LedgerView | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

/** The search as typed, applied a moment after the person stops typing. */
function usePausedSearch(search: string): string {
  const [applied, setApplied] = useState(search);
  useEffect(() => {
    if (search === applied) return;
    const timer = setTimeout(() => setApplied(search), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search, applied]);
  return applied;
}

export function useLedger(filters: LedgerFilters): LedgerState {
  const [view, setView] = useState<LedgerView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [reloads, setReloads] = useState(0);
  const latest = useRef(0);
  const search = usePausedSearch(filters.search);
  const { session, tool, decision } = filters;

  useEffect(() => {
    const run = ++latest.current;
    setLoading(true);
    api.listLedger(ledgerQuery({ session, tool, decision, search })).then(
      (value) => {
        if (run !== latest.current) return;
        setView(value);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (run !== latest.current) return;
        setError(errorMessage(failure));
        setLoading(false);
      },
    );
    return () => {
      latest.current += 1;
    };
  }, [session, tool, decision, search, reloads]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { view, error, loading, reload };
}
