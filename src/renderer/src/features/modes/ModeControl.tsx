// The session's permission mode, in the header. A loosening is confirmed by
// main itself, in its own dialog showing the mode table's warning (no page can
// answer that one): while it is open the control waits, disabled, and then
// shows the mode the service reports with its message, a refusal included.
// Tightening applies at once. What each mode does is told from the mode table
// itself (modeHelp), so the help cannot say anything the policy does not do.
import { useId, useState } from 'react';
import { PERMISSION_MODES, type PermissionMode } from '../../../../shared/domain';
import { modeHelp } from '../../../../shared/modeTable';
import { api, errorMessage } from '../../lib/api';
import { useCommandHandler } from '../commands/windowCommands';

interface ModeControlProps {
  /** Null when no session is open: there is no mode to change. */
  mode: PermissionMode | null;
  onChanged(mode: PermissionMode): void;
  /** The outcome, for the person to read. */
  onMessage(message: string, isError: boolean): void;
}

/** Asks the service for a mode; it answers once the change is made or refused (after main's dialog, for a loosening). */
function useModeRequest({ onChanged, onMessage }: Omit<ModeControlProps, 'mode'>) {
  const [working, setWorking] = useState(false);

  async function request(requested: PermissionMode) {
    setWorking(true);
    try {
      const result = await api.setPermissionMode({ mode: requested });
      onChanged(result.mode);
      onMessage(result.message, result.status === 'error');
    } catch (failure) {
      onMessage(errorMessage(failure), true);
    } finally {
      setWorking(false);
    }
  }

  return { working, request };
}

export function ModeControl({ mode, onChanged, onMessage }: ModeControlProps) {
  const { working, request } = useModeRequest({ onChanged, onMessage });
  useModeCommand(mode, working, request);
  return <ModeSelect mode={mode} waiting={working} onChoose={(requested) => void request(requested)} />;
}

/**
 * /mode and /plan (features/commands): the same request as choosing in the
 * list, so a loosening asks in main's dialog; /mode alone says the mode and
 * what it does, from the table.
 */
function useModeCommand(mode: PermissionMode | null, waiting: boolean, request: (requested: PermissionMode) => Promise<void>): void {
  useCommandHandler('mode', (requested) => {
    if (mode === null) throw new Error('Select a session before changing its permission mode.');
    if (requested === null) return `Permission mode: ${modeHelp(mode)} The modes: ${PERMISSION_MODES.join(', ')}.`;
    if (waiting) throw new Error('A permission mode change is still waiting for your answer. The permission mode did not change.');
    if (requested === mode) return `The permission mode is already ${mode}.`;
    void request(requested);
    return null;
  });
}

/** The label and the choice of modes, each with its help from the table; "None" without a session. `waiting`: a change is being made or confirmed. */
function ModeSelect({ mode, waiting, onChoose }: { mode: PermissionMode | null; waiting: boolean; onChoose(requested: PermissionMode): void }) {
  const id = useId();
  if (mode === null) {
    return (
      <>
        <span className="status-label">Permission mode</span>
        <span id={id} className="mode-none" data-testid="header-mode">
          None
        </span>
      </>
    );
  }
  return (
    <>
      <label htmlFor={id} className="status-label">
        Permission mode
      </label>
      <select
        id={id}
        className="mode-select"
        data-testid="header-mode"
        value={mode}
        title={modeHelp(mode)}
        disabled={waiting}
        aria-busy={waiting}
        onChange={(event) => {
          const requested = event.target.value as PermissionMode;
          if (requested !== mode) onChoose(requested);
        }}
      >
        {PERMISSION_MODES.map((name) => (
          <option key={name} value={name} title={modeHelp(name)}>
            {name}
          </option>
        ))}
      </select>
    </>
  );
}
