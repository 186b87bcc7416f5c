// A message to the window that the person can dismiss: shown in the flow
// above the content (never over the transcript) until it is closed or replaced.
interface BannerProps {
  text: string;
  isError?: boolean;
  onDismiss(): void;
  testId?: string;
}

export function Banner({ text, isError = false, onDismiss, testId }: BannerProps) {
  return (
    <div className={isError ? 'banner banner-error' : 'banner banner-info'}>
      {/* The live region holds the message only, so the close button is not read out with it. */}
      <p className="banner-text" role={isError ? 'alert' : 'status'} data-testid={testId}>
        {text}
      </p>
      <button type="button" className="ghost small banner-close" aria-label="Dismiss message" title="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
