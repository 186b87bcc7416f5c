// Asking before a link from the transcript opens in the browser.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';

const AskToOpen = createContext<(url: string) => void>(() => undefined);

/** The function a link calls instead of navigating. */
export function useAskToOpenLink(): (url: string) => void {
  return useContext(AskToOpen);
}

export function LinkConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<string | null>(null);
  return (
    <AskToOpen.Provider value={setPending}>
      {children}
      {pending !== null && (
        <ConfirmDialog
          title="Open this link in your browser?"
          confirmLabel="Open link"
          testId="link-dialog"
          onCancel={() => setPending(null)}
          onConfirm={() => {
            const url = pending;
            setPending(null);
            // Main turns this into a hand-off to the system browser after its own check; the window never navigates.
            window.open(url, '_blank', 'noopener,noreferrer');
          }}
        >
          <p>The link came from the model's answer. Check where it goes before you open it:</p>
          <p className="link-target">{pending}</p>
        </ConfirmDialog>
      )}
    </AskToOpen.Provider>
  );
}
