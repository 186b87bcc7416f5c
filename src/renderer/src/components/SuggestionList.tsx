// A list of suggestions that pops up under a text field (the `/` commands, the
// @ mentions): a listbox whose active option the field names with
// aria-activedescendant, since the focus stays in the field. The field's keys
// drive it (lib/listboxKeys.ts); a click picks an option without taking the
// focus (or the caret) from the field.
import type { ReactNode } from 'react';

interface SuggestionListProps<T> {
  listId: string;
  label: string;
  options: readonly T[];
  selected: number;
  optionId(index: number): string;
  keyOf(option: T): string;
  onPick(option: T): void;
  className?: string;
  optionClassName?: string;
  testId?: string;
  children(option: T): ReactNode;
}

export function SuggestionList<T>({ listId, label, options, selected, optionId, keyOf, onPick, className, optionClassName, testId, children }: SuggestionListProps<T>) {
  return (
    <ul id={listId} className={className ? `mention-list ${className}` : 'mention-list'} role="listbox" aria-label={label} data-testid={testId}>
      {options.map((option, index) => (
        <li
          key={keyOf(option)}
          id={optionId(index)}
          role="option"
          aria-selected={index === selected}
          className={optionClassName ? `mention-option ${optionClassName}` : 'mention-option'}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(option)}
        >
          {children(option)}
        </li>
      ))}
    </ul>
  );
}
