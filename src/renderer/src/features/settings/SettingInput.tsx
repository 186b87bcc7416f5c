// One field of the Settings form, drawn from its description in
// src/shared/settings.ts: the kind decides the input, the label and help come with it.
import { settingLabel, type SettingField } from '../../../../shared/settings';

interface SettingInputProps {
  id: string;
  field: SettingField;
  value: string | boolean;
  disabled: boolean;
  onChange(value: string | boolean): void;
}

export function SettingInput({ id, field, value, disabled, onChange }: SettingInputProps) {
  const helpId = `${id}-help`;
  const help = (
    <p className="muted field-help" id={helpId}>
      {field.help}
    </p>
  );
  const kind = field.kind;
  if (kind.type === 'boolean') {
    return (
      <>
        <label htmlFor={id} className="checkbox">
          <input id={id} type="checkbox" checked={value === true} disabled={disabled} aria-describedby={helpId} onChange={(event) => onChange(event.target.checked)} />
          {settingLabel(field)}
        </label>
        {help}
      </>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <>
      <label htmlFor={id}>{settingLabel(field)}</label>
      {kind.type === 'choice' ? (
        <select id={id} value={text} disabled={disabled} aria-describedby={helpId} onChange={(event) => onChange(event.target.value)}>
          {kind.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={kind.type === 'url' ? 'url' : 'text'}
          inputMode={kind.type === 'integer' ? 'numeric' : undefined}
          value={text}
          disabled={disabled}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={helpId}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {help}
    </>
  );
}
