// Asking before a link from the transcript opens in the browser. Main checks
// the link when the person asks and issues a one-time id for that exact URL;
// the dialog shows the URL as main will open it, and confirming presents the
// id. Nothing else opens a link: main denies every window-open request.
import { createContext, useContext, useState, type ReactNode } from 'react';
import type { LinkCheck } from '../../../../shared/ipc';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, errorMessage } from '../../lib/api';

const AskToOpen = createContext<(url: string) => void>(() => undefined);

/** The function a link calls instead of navigating. */
export function useAskToOpenLink(): (url: string) => void {
  return useContext(AskToOpen);
}

export function LinkConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<LinkCheck | null>(null);
  const [error, setError] = useState<string | null>(null);

  function ask(url: string) {
    setError(null);
    api.checkLink({ url }).then(setPending, (failure: unknown) => setError(errorMessage(failure)));
  }

  function open(check: LinkCheck) {
    setPending(null);
    api.openLink({ id: check.id }).catch((failure: unknown) => setError(errorMessage(failure)));
  }

  return (
    <AskToOpen.Provider value={ask}>
      {children}
      {error !== null && (
        <div className="link-error" role="alert" data-testid="link-error">
          <ErrorMessage text={error} />
          <button type="button" className="ghost small" onClick={() => setError(null)}>
            Dismiss
          </button>
        </div>
      )}
      {pending !== null && (
        <ConfirmDialog
          title="Open this link in your browser?"
          confirmLabel="Open link"
          testId="link-dialog"
          onCancel={() => setPending(null)}
          onConfirm={() => open(pending)}
        >
          <p>The link came from the model's answer. Check where it goes before you open it:</p>
          <p className="link-target">{pending.url}</p>
        </ConfirmDialog>
      )}
    </AskToOpen.Provider>
  );
}
