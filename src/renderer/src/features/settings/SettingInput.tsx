// One field of the Settings form, drawn from its description in
// src/shared/settings.ts: the kind decides the input, the label and help come with it.
import type { ReactNode } from 'react';
import { settingLabel, settingProblems, type SettingField } from '../../../../shared/settings';

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
  if (kind.type === 'list') return <ListInput id={id} field={field} text={text} disabled={disabled} help={help} onChange={onChange} />;
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

/**
 * A list, one entry per line. What the schema says of a bad entry shows under
 * it as it is typed (a save would be refused with the same words), tied to
 * the field so a screen reader reads it with the help.
 */
function ListInput({ id, field, text, disabled, help, onChange }: { id: string; field: SettingField; text: string; disabled: boolean; help: ReactNode; onChange(value: string): void }) {
  const helpId = `${id}-help`;
  const problemId = `${id}-problem`;
  const problems = disabled ? [] : settingProblems(field, text);
  return (
    <>
      <label htmlFor={id}>{settingLabel(field)}</label>
      <textarea
        id={id}
        value={text}
        rows={8}
        wrap="off"
        disabled={disabled}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problems.length > 0}
        aria-describedby={problems.length > 0 ? `${helpId} ${problemId}` : helpId}
        onChange={(event) => onChange(event.target.value)}
      />
      {help}
      {problems.length > 0 && (
        <p className="error field-problem" id={problemId}>
          {problems.join(' ')}
        </p>
      )}
    </>
  );
}
