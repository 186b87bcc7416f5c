// Settings → Services: every model service Mino can talk to (the file
// ~/.mino/config.json holds them), each with its key and Test connection, and
// a new one added from a preset whose every field can be edited.
import { useId, useState } from 'react';
import type { ServiceEntry, ServicesView } from '../../../../shared/serviceViews';
import { api } from '../../lib/api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ServiceForm } from './ServiceForm';
import { ServiceItem } from './ServiceItem';
import { configOf, draftOf, type ServiceDraft } from './serviceDraft';
import { useServices } from './useServices';
import './services.css';

/** What the form below the list is doing: nothing, adding from a preset, or editing a saved service. */
type Editing = { kind: 'none' } | { kind: 'add'; preset: number } | { kind: 'edit'; service: ServiceEntry };

export function ServicesSection({ open }: { open: boolean }) {
  const ids = useId();
  const { view, error, adopt } = useServices(open);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [preset, setPreset] = useState(0);

  async function save(draft: ServiceDraft, makeDefault: boolean) {
    adopt(await api.saveService({ service: configOf(draft), makeDefault }));
    setEditing({ kind: 'none' });
  }

  return (
    <section className="form" aria-labelledby={`${ids}-title`} data-testid="services-section">
      <h3 id={`${ids}-title`}>Services</h3>
      <p className="muted">
        The model services Mino can talk to, kept in {view ? <code>{view.path}</code> : '~/.mino/config.json'}. Keys are stored securely on this computer
        and never shown again; a key variable in the environment wins over a stored key.
      </p>
      <ErrorMessage text={error ?? view?.problem ?? null} />
      <ul className="service-list">
        {view?.services.map((service) => <ServiceItem key={service.name} service={service} onEdit={() => setEditing({ kind: 'edit', service })} />)}
      </ul>
      {editing.kind === 'edit' && (
        <ServiceForm
          key={`edit-${editing.service.name}`}
          initial={draftOf(editing.service)}
          editing
          builtIn={editing.service.builtIn}
          isDefault={editing.service.isDefault}
          onSave={save}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      )}
      {editing.kind === 'add' && view?.presets[editing.preset] && (
        <ServiceForm
          key={`add-${editing.preset}`}
          initial={draftOf(view.presets[editing.preset].service)}
          editing={false}
          builtIn={false}
          fill={view.presets[editing.preset].fill}
          isDefault={false}
          onSave={save}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      )}
      {editing.kind === 'none' && view && <AddService view={view} preset={preset} onPreset={setPreset} onAdd={() => setEditing({ kind: 'add', preset })} />}
    </section>
  );
}

function AddService({ view, preset, onPreset, onAdd }: { view: ServicesView; preset: number; onPreset(index: number): void; onAdd(): void }) {
  const id = useId();
  return (
    <div className="service-add">
      <label htmlFor={`${id}-preset`}>Add a service from</label>
      <select id={`${id}-preset`} value={preset} onChange={(event) => onPreset(Number(event.target.value))}>
        {view.presets.map((entry, index) => (
          <option key={entry.label} value={index}>
            {entry.label}
          </option>
        ))}
      </select>
      <button type="button" onClick={onAdd}>
        Add service…
      </button>
    </div>
  );
}
