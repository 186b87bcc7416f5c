// The session's permission mode, in the header. Loosening asks once, with the
// service's own warning, and Cancel is the default; the yes sends back the
// one-time id the service issued with that warning. Tightening applies at once.
// What each mode does is told from the mode table itself (modeHelp), so the
// help cannot say anything the policy does not do.
import { useId, useState } from 'react';
import { PERMISSION_MODES, type PermissionMode } from '../../../../shared/domain';
import { modeHelp } from '../../../../shared/modeTable';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { api, errorMessage } from '../../lib/api';

interface ModeControlProps {
  /** Null when no session is open: there is no mode to change. */
  mode: PermissionMode | null;
  onChanged(mode: PermissionMode): void;
  /** The outcome, for the person to read. */
  onMessage(message: string, isError: boolean): void;
}

/** A loosening the service wants confirmed: the mode asked for, the one it leaves, and the service's warning. */
interface PendingChange {
  mode: PermissionMode;
  from: PermissionMode;
  warning: string;
  confirmationId: string;
}

/** Asks the service for a mode; a loosening comes back as a change to confirm. */
function useModeRequest({ onChanged, onMessage }: Omit<ModeControlProps, 'mode'>) {
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [working, setWorking] = useState(false);

  async function request(requested: PermissionMode, from: PermissionMode, confirmationId?: string) {
    setWorking(true);
    try {
      const result = await api.setPermissionMode(confirmationId === undefined ? { mode: requested } : { mode: requested, confirmationId });
      if (result.status === 'needs_confirmation') {
        if (!result.confirmationId) {
          onMessage(`Mino did not return a way to confirm ${requested} mode. The mode is unchanged: ${result.mode}. Choose the mode again.`, true);
          return;
        }
        const warning = result.warning ?? `${requested} mode runs more calls without asking.`;
        setPending({ mode: requested, from, warning, confirmationId: result.confirmationId });
        return;
      }
      onChanged(result.mode);
      onMessage(result.message, result.status === 'error');
    } catch (failure) {
      onMessage(errorMessage(failure), true);
    } finally {
      setWorking(false);
    }
  }

  /** `current`: the mode shown now, which the service still has. */
  function cancel(current: PermissionMode | null) {
    if (pending) onMessage(`Permission mode unchanged: ${current ?? pending.from}.`, false);
    setPending(null);
  }

  function confirm() {
    if (!pending) return;
    setPending(null);
    void request(pending.mode, pending.from, pending.confirmationId);
  }

  return { pending, working, request, cancel, confirm };
}

export function ModeControl({ mode, onChanged, onMessage }: ModeControlProps) {
  const { pending, working, request, cancel, confirm } = useModeRequest({ onChanged, onMessage });
  return (
    <>
      <ModeSelect mode={mode} disabled={working} onChoose={(requested, from) => void request(requested, from)} />
      {pending && (
        <ConfirmDialog title="Switch to this mode?" confirmLabel={`Switch to ${pending.mode}`} risky testId="mode-dialog" onCancel={() => cancel(mode)} onConfirm={confirm}>
          <p className="warning" data-testid="mode-warning">
            {pending.warning}
          </p>
          <p>Switch this session to {pending.mode} mode?</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** The label and the choice of modes, each with its help from the table; "None" without a session. */
function ModeSelect({ mode, disabled, onChoose }: { mode: PermissionMode | null; disabled: boolean; onChoose(requested: PermissionMode, from: PermissionMode): void }) {
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
        disabled={disabled}
        onChange={(event) => {
          const requested = event.target.value as PermissionMode;
          if (requested !== mode) onChoose(requested, mode);
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
