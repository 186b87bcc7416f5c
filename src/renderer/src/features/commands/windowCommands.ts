// Where a typed `/` command meets the window's own controls: each control that
// a command stands for registers what it does (the toolbar its actions, the mode
// control its mode request), so a command runs exactly the function its button
// or menu runs. A handler answers with a line to show the person (or null),
// and throws with a message when it cannot act (a session action while a turn
// runs, say).
import { useEffect, useRef } from 'react';
import type { PermissionMode } from '../../../../shared/domain';
import type { Command, CommandName } from './commands';

/** What a control does for its command; `mode` only for /mode (null: show the mode). */
export type CommandHandler = (mode: PermissionMode | null) => Promise<string | null> | string | null;

/** Besides the commands: Settings, which /model opens when the window has no model picker. */
type HandlerName = CommandName | 'settings';

const handlers = new Map<HandlerName, CommandHandler>();

/** The id of the header's model list (app/ModelPicker.tsx). */
const MODEL_PICKER_ID = 'model-picker';

/** Registers `handler` for `name` while the calling component is mounted; the latest handler is always the one run. */
export function useCommandHandler(name: HandlerName, handler: CommandHandler): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const run: CommandHandler = (mode) => latest.current(mode);
    handlers.set(name, run);
    return () => {
      if (handlers.get(name) === run) handlers.delete(name);
    };
  }, [name]);
}

/**
 * Runs a parsed command through the control that registered it. /plan is
 * /mode with the planning mode; /model opens the model picker, or Settings
 * (where the model is set) in a window without one.
 */
export async function runCommand(command: Command): Promise<string | null> {
  if (command.name === 'mode') return handlerFor('mode')(command.mode);
  if (command.name === 'plan') return handlerFor('mode')('plan');
  if (command.name === 'model') return (handlers.get('model') ?? openModelPicker() ?? handlerFor('settings'))(null);
  return handlerFor(command.name)(null);
}

/** The header's model list, focused and opened; null when the window shows none (no session, or no services to pick from). */
function openModelPicker(): CommandHandler | null {
  const picker = document.getElementById(MODEL_PICKER_ID);
  if (!(picker instanceof HTMLSelectElement) || picker.disabled) return null;
  return () => {
    picker.focus();
    try {
      picker.showPicker();
    } catch {
      // ignore: a browser that will not open the list without a click still has it focused, and the line says where it is
    }
    return 'Choose the model in the Model list at the top of the window.';
  };
}

/** Why a session action typed as a command did not run: the toolbar's buttons wait for the turn too. */
export const WAIT_FOR_TURN = 'Session actions wait until the turn ends; type the command again then.';

function handlerFor(name: HandlerName): CommandHandler {
  const handler = handlers.get(name);
  if (!handler) throw new Error(`/${name === 'settings' ? 'model' : name} cannot run here: this window has no control for it right now.`);
  return handler;
}

/** The session actions the toolbar's buttons take; like the buttons, they wait while a turn runs. */
export type SessionCommand = 'new' | 'resume' | 'clear' | 'changes' | 'compact';

/** The toolbar's actions as commands: each runs what its button runs, or says why it waits. */
export function useSessionCommands(waiting: boolean, actions: Record<SessionCommand, () => void>): void {
  const guarded = (name: SessionCommand) => () => {
    if (waiting) throw new Error(WAIT_FOR_TURN);
    actions[name]();
    return null;
  };
  useCommandHandler('new', guarded('new'));
  useCommandHandler('resume', guarded('resume'));
  useCommandHandler('clear', guarded('clear'));
  useCommandHandler('changes', guarded('changes'));
  useCommandHandler('compact', guarded('compact'));
}
