// The session's model, in the header: the models its service lists (asked
// only once the person turns to the list, so opening a session sends the
// service nothing), and each other service
// with its own model, so a pick can move the session to another service. A
// pick made while a turn runs applies from the next message (main says so).
import { useEffect, useState } from 'react';
import type { ServicesView, SessionModel } from '../../../shared/serviceViews';
import { api, errorMessage } from '../lib/api';
import { useServices } from '../features/settings/useServices';
import './ModelPicker.css';

interface ModelPickerProps {
  /** The window's session; the picker is shown only with one. */
  sessionId: string;
  onMessage(message: string, isError: boolean): void;
}

/** A choice as one option value: the service's name cannot hold a line break, so it separates the two. */
const SEPARATOR = '\n';
const valueOf = (service: string, model: string) => `${service}${SEPARATOR}${model}`;

/** The options: the session's service with every model it lists (its current one first if unlisted), then each other service's model. */
export function pickerGroups(view: ServicesView | null, current: SessionModel, listed: string[] | null): Array<{ service: string; models: string[] }> {
  const own = [...new Set([current.model, ...(listed ?? [])])].filter(Boolean);
  const others = (view?.services ?? []).filter((service) => service.name !== current.service).map((service) => ({ service: service.name, models: [service.model] }));
  return [{ service: current.service, models: own }, ...others];
}

export function ModelPicker({ sessionId, onMessage }: ModelPickerProps) {
  const { view } = useServices();
  const [current, setCurrent] = useState<SessionModel | null>(null);
  const [listed, setListed] = useState<string[] | null>(null);
  /** The person turned to the list (focus, or a pick): from then on the service's models are asked for. */
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    let live = true;
    setCurrent(null);
    setWanted(false);
    api.getSessionModel().then(
      (model) => live && setCurrent(model),
      (failure: unknown) => live && onMessage(errorMessage(failure), true),
    );
    return () => {
      live = false;
    };
  }, [sessionId]);

  const service = current?.service ?? null;
  useEffect(() => {
    if (!wanted || service === null || service === '') return;
    let live = true;
    setListed(null);
    // A service that lists no models still offers its own; why it listed none is for Test connection to say.
    api.listServiceModels({ name: service }).then(
      (models) => live && setListed(models.models),
      () => live && setListed(null),
    );
    return () => {
      live = false;
    };
  }, [wanted, service, sessionId]);

  if (!current) return null;
  async function pick(value: string) {
    const [serviceName = '', model = ''] = value.split(SEPARATOR);
    setWanted(true);
    try {
      setCurrent(await api.setSessionModel({ service: serviceName, model }));
    } catch (failure) {
      onMessage(errorMessage(failure), true);
    }
  }

  return (
    <div className="status-model">
      <label htmlFor="model-picker">Model</label>
      <select
        id="model-picker"
        data-testid="model-picker"
        value={valueOf(current.service, current.model)}
        onChange={(event) => void pick(event.target.value)}
        onFocus={() => setWanted(true)}
        title={current.pending ? 'Applies from your next message' : `${current.model} on ${current.service}`}
      >
        {pickerGroups(view, current, listed).map((group) => (
          <optgroup key={group.service} label={group.service}>
            {group.models.map((model) => (
              <option key={model} value={valueOf(group.service, model)}>
                {model}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {current.pending && (
        <span className="muted small" role="status">
          from your next message
        </span>
      )}
    </div>
  );
}
