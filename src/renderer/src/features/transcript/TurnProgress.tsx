// The transient line at the end of the transcript while a turn waits for the
// model: from the moment the message is sent until its first output, with the
// seconds waited, and any retry the model client announced with its wait.
import { elapsedText, useNow } from './useNow';
import type { TurnProgress as Progress } from './transcriptModel';
import './TurnProgress.css';

export function TurnProgress({ progress }: { progress: Progress }) {
  const waiting = progress.waitingSince !== null;
  const now = useNow(waiting);
  if (progress.waitingSince === null) return null;
  return (
    <div className="turn-progress" data-testid="turn-progress">
      <p className="turn-progress-line" role="status">
        <span className="turn-progress-dot" aria-hidden="true" />
        Waiting for the model…{' '}
        <span className="muted" data-testid="waiting-elapsed">
          {elapsedText(now - progress.waitingSince)}
        </span>
      </p>
      {progress.retry && (
        <p className="turn-progress-retry" role="alert" data-testid="retry-notice">
          {progress.retry.message}
        </p>
      )}
    </div>
  );
}
