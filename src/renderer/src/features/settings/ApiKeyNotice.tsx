// On a first run there is no key yet: say what to set and where, instead of
// letting the first question fail.
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';

interface ApiKeyNoticeProps {
  /** Changes whenever the key may have changed (the settings dialog closed). */
  checkAgain: number;
  onOpenSettings(): void;
}

export function ApiKeyNotice({ checkAgain, onOpenSettings }: ApiKeyNoticeProps) {
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    let live = true;
    api.getApiKeyStatus().then(
      (status) => live && setMissing(!status.set),
      // Not knowing is no reason to nag; a failed question will say what is wrong.
      () => live && setMissing(false),
    );
    return () => {
      live = false;
    };
  }, [checkAgain]);

  if (!missing) return null;
  return (
    <aside className="notice-panel" aria-labelledby="api-key-notice-title" data-testid="api-key-notice">
      <h2 id="api-key-notice-title">Set an API key to start</h2>
      <p>
        Mino needs a key for your model service before it can answer. Open Settings, enter the key under “API key” (it is stored securely on this computer and
        never shown again), and check the base URL and model name. Alternatively, start Mino with OPENAI_API_KEY set in the environment.
      </p>
      <button type="button" onClick={onOpenSettings}>
        Enter an API key…
      </button>
    </aside>
  );
}
