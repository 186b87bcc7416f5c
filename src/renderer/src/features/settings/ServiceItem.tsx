// One configured service in Settings → Services: where it is, its model,
// where its key comes from, a field for a key stored on this computer (never
// shown back), Test connection with what it found, and Edit and Remove.
import { useId, useState, type FormEvent } from 'react';
import type { ConnectionReportView, ServiceEntry } from '../../../../shared/serviceViews';
import { api, errorMessage } from '../../lib/api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ConnectionResult } from './ConnectionResult';
import { keyStatusText, PROTOCOL_LABELS } from './serviceDraft';

interface ServiceItemProps {
  service: ServiceEntry;
  onEdit(): void;
}

function readiness(service: ServiceEntry): { text: string; className: string } {
  if (service.ready) return { text: 'Ready', className: 'badge badge-ok' };
  if (service.local) return { text: 'Not tested', className: 'badge badge-neutral' };
  return { text: 'Needs a key', className: 'badge badge-denied' };
}

export function ServiceItem({ service, onEdit }: ServiceItemProps) {
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<ConnectionReportView | null>(null);
  const badge = readiness(service);

  async function run(action: () => Promise<unknown>, done: string) {
    setError(null);
    setNote(null);
    try {
      await action();
      setNote(done);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  async function test() {
    setTesting(true);
    setReport(null);
    setError(null);
    try {
      setReport(await api.testService({ name: service.name }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setTesting(false);
    }
  }

  return (
    <li className="service-item" aria-label={`Service ${service.name}`} data-testid="service-item">
      <div className="service-summary">
        <span className="recent-name">
          {service.name}
          {service.isDefault && <span className="muted small"> (new sessions)</span>}
        </span>
        <span className={badge.className} data-testid="service-state">
          {badge.text}
        </span>
      </div>
      <p className="muted small">
        {PROTOCOL_LABELS[service.protocol]} at <code>{service.baseUrl}</code>, model <code>{service.model}</code>
      </p>
      <ServiceKeyForm service={service} onRun={run} />
      <div className="actions">
        <button type="button" onClick={() => void test()} disabled={testing}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" className="ghost" onClick={onEdit}>
          Edit
        </button>
        {!service.builtIn && (
          <button type="button" className="ghost" onClick={() => void run(() => api.removeService({ name: service.name }), '')}>
            Remove
          </button>
        )}
      </div>
      {report && <ConnectionResult report={report} />}
      <ErrorMessage text={error} />
      {note && (
        <p className="success small" role="status">
          {note}
        </p>
      )}
    </li>
  );
}

/** The key stored for the service on this computer: a new one to save (never shown back), or the stored one removed. */
function ServiceKeyForm({ service, onRun }: { service: ServiceEntry; onRun(action: () => Promise<unknown>, done: string): Promise<void> }) {
  const id = useId();
  const [key, setKey] = useState('');

  async function saveKey(event: FormEvent) {
    event.preventDefault();
    await onRun(() => api.setServiceKey({ name: service.name, apiKey: key }), 'API key saved.');
    setKey('');
  }

  return (
    <form className="service-key" onSubmit={saveKey} aria-label={`Stored key of ${service.name}`}>
      <p className="muted small" id={`${id}-key-status`} data-testid="service-key-status">
        {keyStatusText(service)}
      </p>
      <label htmlFor={`${id}-key`}>API key for {service.name}</label>
      <input
        id={`${id}-key`}
        type="password"
        value={key}
        onChange={(event) => setKey(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${id}-key-status`}
      />
      <div className="actions">
        <button type="submit" disabled={key.trim() === ''}>
          Save key
        </button>
        {service.keySource === 'stored' && (
          <button type="button" className="ghost" onClick={() => void onRun(() => api.deleteServiceKey({ name: service.name }), 'Stored key removed.')}>
            Remove stored key
          </button>
        )}
      </div>
    </form>
  );
}
