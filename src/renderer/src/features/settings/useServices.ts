// The model services as main reports them, kept current: loaded once, then
// replaced by every `services:changed` (a save, a key, a test in any window).
import { useCallback, useEffect, useState } from 'react';
import type { ServicesView } from '../../../../shared/serviceViews';
import { api, errorMessage } from '../../lib/api';

export function useServices(active = true): { view: ServicesView | null; error: string | null; adopt(view: ServicesView): void } {
  const [view, setView] = useState<ServicesView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!active) return;
    let live = true;
    api.getServices().then(
      (loaded) => {
        if (!live) return;
        setView(loaded);
        setError(null);
      },
      (failure: unknown) => live && setError(errorMessage(failure)),
    );
    const unsubscribe = api.onServicesChanged((changed) => live && setView(changed));
    return () => {
      live = false;
      unsubscribe();
    };
  }, [active]);
  const adopt = useCallback((next: ServicesView) => setView(next), []);
  return { view, error, adopt };
}

/** Why nothing can be sent yet (no service works), pointing to the setup; null once one works, or while that is not known. */
export function useSetupNeeded(): string | null {
  const { view } = useServices(true);
  if (!view || view.problem !== null || view.ready) return null;
  return 'No model service is set up yet: follow the setup above, or add one in Settings → Services, then send your message.';
}
