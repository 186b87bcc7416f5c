// The session's permission mode, in the header. Loosening asks once, with the
// service's own warning, and Cancel is the default; tightening applies at once.
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
  const [pending, setPending] = useState<{ mode: PermissionMode; warning: string } | null>(null);
  const [working, setWorking] = useState(false);

  async function request(requested: PermissionMode, confirmed: boolean) {
    setWorking(true);
    try {
      const result = await api.setPermissionMode(requested, confirmed);
      if (result.status === 'needs_confirmation') {
        setPending({ mode: requested, warning: result.warning ?? `${requested} mode runs more calls without asking.` });
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
            if (requested !== mode) void request(requested, false);
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
            const target = pending.mode;
            setPending(null);
            void request(target, true);
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
