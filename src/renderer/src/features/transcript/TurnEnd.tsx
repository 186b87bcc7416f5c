// How a turn ended, at its end in the transcript. A completed turn shows its
// usage; a stopped one or one that reached a limit, one quiet line. A failed
// one is a card: what failed, what was tried, what to do next, and Retry,
// which runs the turn again for the message already sent (so it is neither
// shown nor saved twice). A turn that got no answer shows no usage.
import { useContext } from 'react';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import type { TranscriptItem } from './transcriptModel';
import { tokensText } from './tokensText';
import { TurnRetryContext } from './turnRetry';

type TurnEndItem = Extract<TranscriptItem, { kind: 'turn_end' }>;

const TURN_END_TEXT: Record<string, string> = {
  failed: 'The turn failed.',
  aborted: 'The turn was stopped.',
  limit: 'The turn reached a limit.',
};

export function TurnEnd({ item }: { item: TurnEndItem }) {
  const message = item.message !== null ? markHiddenCharacters(item.message) : (TURN_END_TEXT[item.status] ?? `The turn ended: ${item.status}.`);
  return (
    <div>
      {item.status === 'failed' ? (
        <FailedTurn item={item} message={message} />
      ) : (
        item.status !== 'completed' && (
          <p className={`turn-end turn-end-${item.status}`} data-testid="turn-end">
            {message}
          </p>
        )
      )}
      {item.usage && (
        <p className="muted small turn-usage" data-testid="turn-usage">
          {tokensText(item.usage.inputTokens)} in ({tokensText(item.usage.cachedInputTokens)} cached) · {tokensText(item.usage.outputTokens)} out ({tokensText(item.usage.reasoningTokens)} reasoning)
        </p>
      )}
    </div>
  );
}

function FailedTurn({ item, message }: { item: TurnEndItem; message: string }) {
  const { key, starting, retry } = useContext(TurnRetryContext);
  const offered = key === item.key;
  return (
    <section className="tool-card turn-failed" aria-label="The turn did not finish" data-testid="turn-failed">
      <h3 className="tool-card-title">This turn did not finish</h3>
      <p data-testid="turn-end">{message}</p>
      <p className="muted small">{item.attempts > 1 ? `Mino tried ${item.attempts} times.` : 'Mino tried once.'}</p>
      {offered && (
        <p className="turn-failed-next">
          <span>Retry sends your message again; if it keeps failing, check the model service in Settings.</span>
          <button type="button" onClick={retry} disabled={starting}>
            Retry
          </button>
        </p>
      )}
    </section>
  );
}
