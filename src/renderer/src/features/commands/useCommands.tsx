// The `/` commands in the message box: typing `/` at its start lists the
// commands above it (arrows move, Enter runs or completes the highlighted one,
// Tab completes, Escape closes), like the @ suggestions; sending a command runs
// it through the window's own control for it (windowCommands.ts) instead of
// sending it to the model. A mistyped command is an error under the box, and
// the text stays for the person to fix.
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { modeHelp } from '../../../../shared/modeTable';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SuggestionList } from '../../components/SuggestionList';
import { errorMessage } from '../../lib/api';
import { listboxKey } from '../../lib/listboxKeys';
import { commandOptions, parseCommand, type CommandOption } from './commands';
import { runCommand } from './windowCommands';
import './Commands.css';

export interface Commands {
  /** Spread on the textarea after any other list's props: set only while the command list is open. */
  inputProps: { 'aria-controls'?: string; 'aria-activedescendant'?: string };
  /** Call first in the textarea's keydown; true when the key was the list's. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Runs `text` if it is a command (true: handled, including a mistyped one); false: it is a message. */
  submit(text: string): boolean;
  /** The list, to render just before the textarea. */
  popup: React.ReactNode;
  /** What the last command said, or why it failed; under the box. */
  outcome: React.ReactNode;
}

export function useCommands(text: string, setText: (text: string) => void): Commands {
  const listId = useId();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [said, setSaid] = useState<{ text: string; isError: boolean } | null>(null);

  const options = commandOptions(text, modeHelp);
  const open = options !== null && options.length > 0 && dismissed !== text;
  const selected = open ? Math.min(active, options.length - 1) : 0;
  useEffect(() => setActive(0), [options?.length, text.split(' ')[0]]);

  function run(commandText: string): boolean {
    const parsed = parseCommand(commandText);
    if (parsed.kind === 'message') return false;
    if (parsed.kind === 'error') {
      setSaid({ text: parsed.message, isError: true });
      return true;
    }
    setText('');
    setSaid(null);
    // Started within the key press: a control it opens (a native list) may need the person's gesture.
    runCommand(parsed.command).then(
      (line) => setSaid(line === null ? null : { text: line, isError: false }),
      (failure: unknown) => setSaid({ text: errorMessage(failure), isError: true }),
    );
    return true;
  }

  function pick(option: CommandOption, by: 'enter' | 'tab' | 'click') {
    // Enter on a command already typed in full runs it (so "/mode" + Enter shows the mode).
    if (by !== 'tab' && (option.runs || text.trim() === option.completion.trim())) run(option.completion.trim());
    else setText(option.completion);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (!open) return false;
    const key = listboxKey(event, options.length, selected);
    if (key === null) return false;
    if (key.kind === 'dismiss') setDismissed(text);
    else if (key.kind === 'move') setActive(key.index);
    else pick(options[selected]!, key.by);
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  const optionId = (index: number) => `${listId}-option-${index}`;
  return {
    inputProps: open ? { 'aria-controls': listId, 'aria-activedescendant': optionId(selected) } : {},
    onKeyDown,
    submit: run,
    popup: open ? <CommandList listId={listId} options={options} selected={selected} optionId={optionId} onPick={(option) => pick(option, 'click')} /> : null,
    outcome: said === null ? null : said.isError ? <ErrorMessage text={said.text} /> : <CommandSaid text={said.text} onDismiss={() => setSaid(null)} />,
  };
}

interface CommandListProps {
  listId: string;
  options: CommandOption[];
  selected: number;
  optionId(index: number): string;
  onPick(option: CommandOption): void;
}

function CommandList({ listId, options, selected, optionId, onPick }: CommandListProps) {
  return (
    <div className="mention-anchor">
      <SuggestionList
        listId={listId}
        label="Commands"
        options={options}
        selected={selected}
        optionId={optionId}
        keyOf={(option) => option.id}
        onPick={onPick}
        className="command-list"
        optionClassName="command-option"
        testId="command-list"
      >
        {(option) => (
          <>
            <span className="command-label">{option.label}</span> <span className="muted small">{option.description}</span>
          </>
        )}
      </SuggestionList>
    </div>
  );
}

function CommandSaid({ text, onDismiss }: { text: string; onDismiss(): void }) {
  return (
    <p className="command-said small" role="status" data-testid="command-said">
      {text}{' '}
      <button type="button" className="ghost small" onClick={onDismiss}>
        Dismiss
      </button>
    </p>
  );
}
