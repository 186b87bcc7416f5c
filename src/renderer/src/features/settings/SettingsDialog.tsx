import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ApiKeyStatus } from '../../../../shared/ipc';
import { api, errorMessage } from '../../lib/api';
import { McpServersSection } from './McpServersSection';
import { ErrorMessage } from '../../components/ErrorMessage';

interface SettingsDialogProps {
  open: boolean;
  onClose(): void;
}

interface Draft {
  baseUrl: string;
  model: string;
  contextWindow: string;
}

function keyStatusText(status: ApiKeyStatus | null): string {
  if (!status) return 'Checking…';
  if (status.source === 'environment') return 'Set from OPENAI_API_KEY in the environment (it takes precedence over a stored key).';
  if (status.source === 'stored') return 'A key is stored securely on this computer.';
  return 'No API key is set.';
}

/** A modal dialog (native <dialog>: focus is trapped and Escape closes it). */
export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [path, setPath] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [keyStatus, setKeyStatus] = useState<ApiKeyStatus | null>(null);
  const [keyDraft, setKeyDraft] = useState('');
  const [keyError, setKeyError] = useState<string | null>(null);
  const [keySaved, setKeySaved] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setDraft(null);
    setLoadError(null);
    setSaveError(null);
    setSaved(false);
    setKeyDraft('');
    setKeyError(null);
    setKeySaved(false);
    api.settings().then(
      (view) => {
        if (!live) return;
        setPath(view.path);
        setDraft({ baseUrl: view.settings.baseUrl, model: view.settings.model, contextWindow: String(view.settings.contextWindow) });
      },
      (failure: unknown) => live && setLoadError(errorMessage(failure)),
    );
    api.apiKeyStatus().then(
      (status) => live && setKeyStatus(status),
      (failure: unknown) => live && setKeyError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [open]);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    setSaveError(null);
    setSaved(false);
    try {
      const text = draft.contextWindow.trim();
      const view = await api.saveSettings({ baseUrl: draft.baseUrl, model: draft.model, contextWindow: text === '' ? Number.NaN : Number(text) });
      setDraft({ baseUrl: view.settings.baseUrl, model: view.settings.model, contextWindow: String(view.settings.contextWindow) });
      setSaved(true);
    } catch (failure) {
      setSaveError(errorMessage(failure));
    }
  }

  async function saveKey(event: FormEvent) {
    event.preventDefault();
    setKeyError(null);
    setKeySaved(false);
    try {
      setKeyStatus(await api.setApiKey(keyDraft));
      setKeyDraft('');
      setKeySaved(true);
    } catch (failure) {
      setKeyError(errorMessage(failure));
    }
  }

  const field = (name: keyof Draft) => ({
    id: `${ids}-${name}`,
    value: draft?.[name] ?? '',
    onChange: (event: { target: { value: string } }) => {
      setSaved(false);
      setDraft((current) => (current ? { ...current, [name]: event.target.value } : current));
    },
  });

  return (
    <dialog ref={dialogRef} className="dialog" aria-labelledby={`${ids}-title`} onClose={onClose}>
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Settings</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close settings">
          Close
        </button>
      </header>

      <ErrorMessage text={loadError} />

      <form onSubmit={save} aria-label="Model service" className="form">
        <h3>Model service</h3>
        <label htmlFor={`${ids}-baseUrl`}>Base URL</label>
        <input type="url" {...field('baseUrl')} disabled={!draft} spellCheck={false} autoComplete="off" />
        <label htmlFor={`${ids}-model`}>Model name</label>
        <input type="text" {...field('model')} disabled={!draft} spellCheck={false} autoComplete="off" />
        <label htmlFor={`${ids}-contextWindow`}>Context window (tokens)</label>
        <input type="text" inputMode="numeric" {...field('contextWindow')} disabled={!draft} autoComplete="off" />
        <ErrorMessage text={saveError} />
        {saved && (
          <p className="success" role="status">
            Saved to {path}.
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={!draft}>
            Save settings
          </button>
        </div>
      </form>

      <form onSubmit={saveKey} aria-label="API key" className="form">
        <h3>API key</h3>
        <p className="muted" id={`${ids}-key-status`}>
          {keyStatusText(keyStatus)}
        </p>
        <label htmlFor={`${ids}-apiKey`}>New API key</label>
        <input
          id={`${ids}-apiKey`}
          type="password"
          value={keyDraft}
          onChange={(event) => setKeyDraft(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${ids}-key-status`}
        />
        <ErrorMessage text={keyError} />
        {keySaved && (
          <p className="success" role="status">
            API key saved.
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={keyDraft.trim() === ''}>
            Save key
          </button>
        </div>
      </form>

      <McpServersSection open={open} />
    </dialog>
  );
}
