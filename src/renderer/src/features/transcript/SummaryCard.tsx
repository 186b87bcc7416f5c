// The summary the model reads in place of the earlier turns: closed by
// default, opened to read, and (for the summary in force) edited and saved as
// the person's own, which the next request carries.
import { useState } from 'react';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import { api, errorMessage } from '../../lib/api';
import { ErrorMessage } from '../../components/ErrorMessage';
import type { TranscriptItem } from './transcriptModel';
import { tokensText } from './tokensText';

type SummaryItem = Extract<TranscriptItem, { kind: 'summary' }>;

interface SummaryCardProps {
  item: SummaryItem;
  /** The summary in force (the newest); older ones were replaced and are read-only. */
  current: boolean;
  busy: boolean;
  expanded: boolean;
  onToggle(): void;
}

export function SummaryCard({ item, current, busy, expanded, onToggle }: SummaryCardProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(text: string) {
    setSaving(true);
    setError(null);
    try {
      await api.editSummary({ text });
      setDraft(null);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  }

  const by = item.author === 'person' ? 'written by you' : 'written by Mino';
  return (
    <section className={`summary-card${current ? '' : ' summarized'}`} data-testid="summary-card" aria-label="Summary of earlier turns">
      <header className="summary-header">
        <button type="button" className="ghost small" aria-expanded={expanded} onClick={onToggle}>
          {expanded ? 'Hide' : 'Open'} summary
        </button>
        <span className="muted small">
          Earlier turns summarized, {by} ({tokensText(item.tokensBefore)} → {tokensText(item.tokensAfter)} tokens){current ? '' : '; replaced by a later summary'}
        </span>
      </header>
      {expanded && draft === null && (
        <>
          <p className="message-text" data-testid="summary-text">
            {markHiddenCharacters(item.text)}
          </p>
          {current && (
            <button type="button" className="small" disabled={busy} onClick={() => setDraft(item.text)}>
              Edit summary
            </button>
          )}
        </>
      )}
      {expanded && draft !== null && (
        <>
          <textarea aria-label="Summary text" className="summary-editor" value={draft} rows={8} onChange={(event) => setDraft(event.target.value)} />
          <ErrorMessage text={error} />
          <div className="summary-actions">
            <button type="button" className="small" disabled={saving || busy} onClick={() => void save(draft)}>
              Save summary
            </button>
            <button type="button" className="ghost small" disabled={saving} onClick={() => (setDraft(null), setError(null))}>
              Cancel
            </button>
          </div>
          <p className="muted small">The model reads the saved summary from the next request on. It is context only: it grants no permission.</p>
        </>
      )}
    </section>
  );
}
