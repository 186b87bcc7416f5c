// Calls that were running when Mino stopped: their outcome is unknown, they
// are never run again, and the person acknowledges them before the next question.
import { useState } from 'react';
import { removedTempFilesText, survivorsText } from '../../../../shared/resumeNotices';
import type { UnknownCallView } from '../../../../shared/sessions';

export const UNKNOWN_RESULTS_EXPLANATION =
  'Mino stopped while these calls were running; their outcome is unknown and they were not run again. Check the project, then acknowledge.';

interface UnknownResultsProps {
  calls: UnknownCallView[];
  onAcknowledge(): Promise<void>;
}

export function UnknownResults({ calls, onAcknowledge }: UnknownResultsProps) {
  const [working, setWorking] = useState(false);
  return (
    <section className="unknown" aria-labelledby="unknown-title" data-testid="unknown-results">
      <h2 id="unknown-title">Unknown results</h2>
      <p>{UNKNOWN_RESULTS_EXPLANATION}</p>
      <ul>
        {calls.map((call) => (
          <li key={call.callId}>
            <code>{call.name}</code> <code className="muted">{call.arguments}</code>
            {call.removedTempFiles && call.removedTempFiles.length > 0 ? (
              <p data-testid="removed-temp-files">
                {removedTempFilesText(call.removedTempFiles)}
              </p>
            ) : null}
            {call.survivors ? <p data-testid="command-survivors">{survivorsText(call.survivors)}</p> : null}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="primary"
        disabled={working}
        onClick={() => {
          setWorking(true);
          onAcknowledge().finally(() => setWorking(false));
        }}
      >
        Acknowledge
      </button>
    </section>
  );
}

