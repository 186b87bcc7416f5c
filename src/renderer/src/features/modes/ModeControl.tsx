// The session's permission mode, in the header. Loosening asks once, with the
// service's own warning, and Cancel is the default; the yes sends back the
// one-time id the service issued with that warning. Tightening applies at once.
import { useId, useState } from 'react';
import { PERMISSION_MODES, type PermissionMode } from '../../../../shared/domain';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { api, errorMessage } from '../../lib/api';

const MODE_HELP: Record<PermissionMode, string> = {
  manual: 'manual: asks before every write, edit, Bash command and MCP call',
  'accept-edits': 'accept-edits: file writes and edits run without asking; Bash and MCP still ask',
  bypass: 'bypass: every call runs without asking; protected files stay refused',
};

interface ModeControlProps {
  /** Null when no session is open: there is no mode to change. */
  mode: PermissionMode | null;
  onChanged(mode: PermissionMode): void;
  /** The outcome, for the person to read. */
  onMessage(message: string, isError: boolean): void;
}

export function ModeControl({ mode, onChanged, onMessage }: ModeControlProps) {
  const id = useId();
  const [pending, setPending] = useState<{ mode: PermissionMode; warning: string; confirmationId: string } | null>(null);
  const [working, setWorking] = useState(false);

  async function request(requested: PermissionMode, confirmationId?: string) {
    setWorking(true);
    try {
      const result = await api.setPermissionMode(confirmationId === undefined ? { mode: requested } : { mode: requested, confirmationId });
      if (result.status === 'needs_confirmation') {
        if (!result.confirmationId) {
          onMessage(`Mino did not return a way to confirm ${requested} mode. The mode is unchanged: ${result.mode}. Choose the mode again.`, true);
          return;
        }
        setPending({ mode: requested, warning: result.warning ?? `${requested} mode runs more calls without asking.`, confirmationId: result.confirmationId });
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

  return (
    <>
      {mode === null ? (
        <span className="status-label">Permission mode</span>
      ) : (
        <label htmlFor={id} className="status-label">
          Permission mode
        </label>
      )}
      {mode === null ? (
        <span id={id} className="mode-none" data-testid="header-mode">
          None
        </span>
      ) : (
        <select
          id={id}
          className="mode-select"
          data-testid="header-mode"
          value={mode}
          title={MODE_HELP[mode]}
          disabled={working}
          onChange={(event) => {
            const requested = event.target.value as PermissionMode;
            if (requested !== mode) void request(requested);
          }}
        >
          {PERMISSION_MODES.map((name) => (
            <option key={name} value={name} title={MODE_HELP[name]}>
              {name}
            </option>
          ))}
        </select>
      )}
      {pending && (
        <ConfirmDialog
          title="Switch to this mode?"
          confirmLabel={`Switch to ${pending.mode}`}
          risky
          testId="mode-dialog"
          onCancel={() => {
            onMessage(`Permission mode unchanged: ${mode ?? 'manual'}.`, false);
            setPending(null);
          }}
          onConfirm={() => {
            const { mode: target, confirmationId } = pending;
            setPending(null);
            void request(target, confirmationId);
          }}
        >
          <p className="warning" data-testid="mode-warning">
            {pending.warning}
          </p>
          <p>Switch this session to {pending.mode} mode?</p>
        </ConfirmDialog>
      )}
    </>
  );
}
