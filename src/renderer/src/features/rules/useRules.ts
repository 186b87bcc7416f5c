// The person's rules as a window sees them (the global ones, then its
// project's), fetched when `active` becomes true and on reload, and the two
// changes a person can make here: add one, remove one. A change that loosens
// waits for the person's yes in main's own dialog, so it can take as long as
// the person takes; its outcome (saved, not confirmed, refused) is kept for
// the page to show, with the fresh list main sends along.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RuleAddInput, RuleChangeResult, RulesView } from '../../../../shared/rules';
import { api, errorMessage } from '../../lib/api';

/** What the last change came to, in the words main chose. */
export interface RuleOutcome {
  status: RuleChangeResult['status'];
  message: string;
}

export interface RulesState {
  view: RulesView | null;
  /** Why the rules could not be fetched at all (the view's `problem` is for a rules file that cannot be read). */
  loadError: string | null;
  /** A change is on its way (and may be waiting for the person in main's dialog). */
  working: boolean;
  outcome: RuleOutcome | null;
  add(input: RuleAddInput): Promise<RuleOutcome>;
  remove(id: string): Promise<RuleOutcome>;
  reload(): void;
}

export function useRules(active: boolean): RulesState {
  const [view, setView] = useState<RulesView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [outcome, setOutcome] = useState<RuleOutcome | null>(null);
  // Each fetch has a number; only the latest may update the view (a change's own answer counts as the latest).
  const latest = useRef(0);

  const reload = useCallback(() => {
    const run = ++latest.current;
    setLoadError(null);
    api.listRules().then(
      (value) => run === latest.current && setView(value),
      (failure: unknown) => run === latest.current && setLoadError(errorMessage(failure)),
    );
  }, []);

  useEffect(() => {
    if (!active) return;
    setOutcome(null);
    reload();
    return () => {
      latest.current += 1;
    };
  }, [active, reload]);

  const change = useCallback(async (request: () => Promise<RuleChangeResult>): Promise<RuleOutcome> => {
    setWorking(true);
    setOutcome(null);
    let next: RuleOutcome;
    try {
      const result = await request();
      latest.current += 1;
      setView(result.view);
      next = { status: result.status, message: result.message };
    } catch (failure) {
      next = { status: 'error', message: `The rules could not be changed: ${errorMessage(failure)} Nothing was saved.` };
    }
    setOutcome(next);
    setWorking(false);
    return next;
  }, []);

  const add = useCallback((input: RuleAddInput) => change(() => api.addRule(input)), [change]);
  const remove = useCallback((id: string) => change(() => api.removeRule({ id })), [change]);

  return { view, loadError, working, outcome, add, remove, reload };
}
