// One model service's fields, every one editable (a preset only fills them
// in). The service named `default` is the base URL and model settings: it
// speaks the Responses API and takes its key from OPENAI_API_KEY or the key
// stored for it, so only its base URL and model are offered.
import { useId, useState, type FormEvent } from 'react';
import { WIRE_PROTOCOLS, type WireProtocol } from '../../../../shared/modelServices';
import { ErrorMessage } from '../../components/ErrorMessage';
import { PROTOCOL_LABELS, type ServiceDraft } from './serviceDraft';

interface ServiceFormProps {
  /** What the form starts with (a preset's fill, or the saved service). */
  initial: ServiceDraft;
  /** Editing a saved service: its name is fixed. */
  editing: boolean;
  /** The service made from the base URL and model settings. */
  builtIn: boolean;
  /** What the person must still fill in (a preset's note). */
  fill?: string | null;
  /** Whether it is already the one new sessions use. */
  isDefault: boolean;
  onSave(draft: ServiceDraft, makeDefault: boolean): Promise<void>;
  onCancel(): void;
}

export function ServiceForm({ initial, editing, builtIn, fill, isDefault, onSave, onCancel }: ServiceFormProps) {
  const id = useId();
  const [draft, setDraft] = useState<ServiceDraft>(initial);
  const [makeDefault, setMakeDefault] = useState(isDefault);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (field: keyof ServiceDraft) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try {
      await onSave(draft, makeDefault);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="form service-form" onSubmit={submit} aria-label={editing ? `Edit service ${initial.name}` : 'New service'}>
      {fill && <p className="muted small">To fill in: {fill}.</p>}
      <label htmlFor={`${id}-name`}>Service name</label>
      <input id={`${id}-name`} value={draft.name} readOnly={editing} onChange={(event) => set('name')(event.target.value)} spellCheck={false} autoComplete="off" />
      <label htmlFor={`${id}-protocol`}>Protocol</label>
      <select id={`${id}-protocol`} value={draft.protocol} disabled={builtIn} onChange={(event) => set('protocol')(event.target.value as WireProtocol)}>
        {WIRE_PROTOCOLS.map((protocol) => (
          <option key={protocol} value={protocol}>
            {PROTOCOL_LABELS[protocol]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-baseUrl`}>Service URL</label>
      <input id={`${id}-baseUrl`} type="url" value={draft.baseUrl} onChange={(event) => set('baseUrl')(event.target.value)} spellCheck={false} autoComplete="off" />
      <label htmlFor={`${id}-model`}>Model</label>
      <input id={`${id}-model`} value={draft.model} onChange={(event) => set('model')(event.target.value)} spellCheck={false} autoComplete="off" />
      {!builtIn && (
        <>
          <label htmlFor={`${id}-apiKeyEnv`}>Key variable (optional)</label>
          <input
            id={`${id}-apiKeyEnv`}
            value={draft.apiKeyEnv}
            onChange={(event) => set('apiKeyEnv')(event.target.value)}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={`${id}-apiKeyEnv-help`}
          />
          <p className="muted field-help" id={`${id}-apiKeyEnv-help`}>
            The environment variable that holds the key, e.g. ANTHROPIC_API_KEY. Leave it empty to use a key stored on this computer.
          </p>
          <label htmlFor={`${id}-contextWindow`}>Service context window (optional)</label>
          <input
            id={`${id}-contextWindow`}
            inputMode="numeric"
            value={draft.contextWindow}
            onChange={(event) => set('contextWindow')(event.target.value)}
            autoComplete="off"
          />
        </>
      )}
      <label htmlFor={`${id}-default`} className="checkbox">
        <input id={`${id}-default`} type="checkbox" checked={makeDefault} disabled={isDefault} onChange={(event) => setMakeDefault(event.target.checked)} />
        Use for new sessions
      </label>
      <ErrorMessage text={error} />
      <div className="actions">
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={saving}>
          Save service
        </button>
      </div>
    </form>
  );
}
