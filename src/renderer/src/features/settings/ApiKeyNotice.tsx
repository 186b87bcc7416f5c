// The first run: while no model service works, a short guided setup instead
// of a bare form: pick a service, paste its key or use the environment's,
// test it, pick a model. It stays until a service works (any window's save
// or key reaches it through `services:changed`), and while its steps run.
import { useId, useState } from 'react';
import type { ServiceConfig } from '../../../../shared/modelServices';
import type { ConnectionReportView, ServicePresetView, ServicesView } from '../../../../shared/serviceViews';
import { api, errorMessage } from '../../lib/api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ConnectionResult } from './ConnectionResult';
import { useServices } from './useServices';
import './services.css';

interface ApiKeyNoticeProps {
  /** Changes whenever the services may have changed (the settings dialog closed). */
  checkAgain: number;
  onOpenSettings(): void;
}

/** A preset whose service is on this machine needs no key. */
function needsKey(preset: ServicePresetView): boolean {
  return preset.service.apiKeyEnv !== undefined;
}

export function ApiKeyNotice({ onOpenSettings }: ApiKeyNoticeProps) {
  // Kept current by `services:changed`, so a key saved in Settings (or another window) ends the setup at once.
  const { view } = useServices(true);
  // Set while the person is partway through: the setup stays even once a service works (the key is saved before the test).
  const [inProgress, setInProgress] = useState(false);

  if (!view || view.problem !== null) return null;
  if (view.ready && !inProgress) return null;
  return (
    <aside className="notice-panel setup-panel" aria-labelledby="setup-title" data-testid="service-setup">
      <h2 id="setup-title">Set up a model service</h2>
      <p>Mino needs a model service to answer. Pick one, give it a key (or use one from the environment), test it, and choose a model.</p>
      <GuidedSetup view={view} onStarted={() => setInProgress(true)} onFinished={() => setInProgress(false)} />
      <p className="muted small">
        Every field of a service can be changed later in Settings, in the{' '}
        <button type="button" className="link-button" onClick={onOpenSettings}>
          Services list
        </button>
        .
      </p>
    </aside>
  );
}

type KeyChoice = 'paste' | 'environment';

/** The preset's service: a pasted key is stored for it, so only a key from the environment keeps its variable. */
function serviceFor(preset: ServicePresetView, fromEnvironment: boolean, baseUrl: string | null): ServiceConfig {
  const { apiKeyEnv, ...rest } = preset.service;
  const service = { ...rest, baseUrl: baseUrl?.trim() || rest.baseUrl };
  return fromEnvironment && apiKeyEnv ? { ...service, apiKeyEnv } : service;
}

function GuidedSetup({ view, onStarted, onFinished }: { view: ServicesView; onStarted(): void; onFinished(): void }) {
  const id = useId();
  const [presetIndex, setPresetIndex] = useState(0);
  const preset = view.presets[presetIndex] ?? view.presets[0];
  const [keyChoice, setKeyChoice] = useState<KeyChoice>('paste');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<ConnectionReportView | null>(null);
  const [model, setModel] = useState('');
  // The preset's address, editable: a local server on another port, an Azure resource.
  const [baseUrl, setBaseUrl] = useState<string | null>(null);
  if (!preset) return null;
  const fromEnvironment = needsKey(preset) && keyChoice === 'environment';
  const keyReady = !needsKey(preset) || (fromEnvironment ? preset.keyInEnvironment : key.trim() !== '');
  const canTest = !busy && keyReady;

  async function saveAndTest() {
    onStarted();
    setBusy(true);
    setError(null);
    setReport(null);
    try {
      const service = serviceFor(preset, fromEnvironment, baseUrl);
      await api.saveService({ service, makeDefault: true });
      if (needsKey(preset) && !fromEnvironment) await api.setServiceKey({ name: service.name, apiKey: key });
      const tested = await api.testService({ name: service.name });
      setReport(tested);
      if (tested.problem === null) setKey('');
      setModel(tested.models?.includes(service.model) || !tested.models?.length ? service.model : (tested.models[0] ?? service.model));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function chooseModel() {
    setBusy(true);
    setError(null);
    try {
      const service = { ...serviceFor(preset, fromEnvironment, baseUrl), model };
      await api.saveService({ service, makeDefault: true });
      // A service that needs no key works once tested as it is now: with this model.
      if (!needsKey(preset)) setReport(await api.testService({ name: service.name }));
      onFinished();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="setup-steps">
      <ServiceStep
        id={id}
        view={view}
        presetIndex={presetIndex}
        baseUrl={baseUrl}
        onPreset={(index) => {
          setPresetIndex(index);
          setBaseUrl(null);
          setReport(null);
        }}
        onBaseUrl={setBaseUrl}
      />

      <KeyStep id={id} preset={preset} keyChoice={keyChoice} onKeyChoice={setKeyChoice} apiKey={key} onApiKey={setKey} />

      <div className="actions">
        <button type="button" className="primary" onClick={() => void saveAndTest()} disabled={!canTest}>
          {busy && !report ? 'Testing…' : '3. Save and test connection'}
        </button>
      </div>
      {report && <ConnectionResult report={report} />}
      <ErrorMessage text={error} />

      {report && report.problem === null && (
        <ModelStep id={id} models={report.models} model={model} onModel={setModel} disabled={busy} onUse={() => void chooseModel()} />
      )}
    </div>
  );
}

interface KeyStepProps {
  id: string;
  preset: ServicePresetView;
  keyChoice: KeyChoice;
  onKeyChoice(choice: KeyChoice): void;
  apiKey: string;
  onApiKey(key: string): void;
}

function KeyStep({ id, preset, keyChoice, onKeyChoice, apiKey, onApiKey }: KeyStepProps) {
  return (
    <fieldset className="setup-key">
      <legend>2. Key</legend>
      {needsKey(preset) ? (
        <>
          <label className="checkbox">
            <input type="radio" name={`${id}-key-choice`} checked={keyChoice === 'paste'} onChange={() => onKeyChoice('paste')} />
            Paste a key (stored securely on this computer)
          </label>
          {keyChoice === 'paste' && (
            <>
              <label htmlFor={`${id}-key`}>API key</label>
              <input id={`${id}-key`} type="password" value={apiKey} onChange={(event) => onApiKey(event.target.value)} autoComplete="off" spellCheck={false} />
            </>
          )}
          <label className="checkbox">
            <input type="radio" name={`${id}-key-choice`} checked={keyChoice === 'environment'} onChange={() => onKeyChoice('environment')} />
            Use {preset.service.apiKeyEnv} from the environment
          </label>
          {keyChoice === 'environment' && !preset.keyInEnvironment && (
            <p className="muted small">{preset.service.apiKeyEnv} is not set in the environment Mino started in: set it and restart Mino, or paste the key.</p>
          )}
        </>
      ) : (
        <p className="muted small">No key needed: this service runs on this computer. Start it before testing.</p>
      )}
    </fieldset>
  );
}

interface ModelStepProps {
  id: string;
  models: string[] | null;
  model: string;
  onModel(model: string): void;
  disabled: boolean;
  onUse(): void;
}

function ModelStep({ id, models, model, onModel, disabled, onUse }: ModelStepProps) {
  return (
    <div className="setup-model">
      <label htmlFor={`${id}-model`}>4. Model</label>
      {models && models.length > 0 ? (
        <select id={`${id}-model`} value={model} onChange={(event) => onModel(event.target.value)}>
          {models.map((entry) => (
            <option key={entry} value={entry}>
              {entry}
            </option>
          ))}
        </select>
      ) : (
        <input id={`${id}-model`} value={model} onChange={(event) => onModel(event.target.value)} spellCheck={false} autoComplete="off" />
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={onUse} disabled={disabled || model.trim() === ''}>
          Use this model
        </button>
      </div>
    </div>
  );
}

interface ServiceStepProps {
  id: string;
  view: ServicesView;
  presetIndex: number;
  baseUrl: string | null;
  onPreset(index: number): void;
  onBaseUrl(url: string): void;
}

function ServiceStep({ id, view, presetIndex, baseUrl, onPreset, onBaseUrl }: ServiceStepProps) {
  const preset = view.presets[presetIndex];
  return (
    <>
      <label htmlFor={`${id}-preset`}>1. Service</label>
      <select id={`${id}-preset`} value={presetIndex} onChange={(event) => onPreset(Number(event.target.value))}>
        {view.presets.map((entry, index) => (
          <option key={entry.label} value={index}>
            {entry.label}
          </option>
        ))}
      </select>
      {preset?.fill && <p className="muted small">To fill in: {preset.fill}.</p>}
      <label htmlFor={`${id}-url`}>Service URL</label>
      <input id={`${id}-url`} type="url" value={baseUrl ?? preset?.service.baseUrl ?? ''} onChange={(event) => onBaseUrl(event.target.value)} spellCheck={false} autoComplete="off" />
    </>
  );
}
