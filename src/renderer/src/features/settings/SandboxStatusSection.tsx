// What sandboxes bash commands under the saved settings, as main found it
// (the program and its version, or why there is none), so a person can see
// what the Sandbox settings above it amount to on this machine.
import type { SandboxStatus } from '../../../../shared/sandboxStatus';
import { sandboxStatusText } from '../../../../shared/sandboxStatus';

export function SandboxStatusSection({ status }: { status: SandboxStatus | null }) {
  return (
    <section aria-label="Bash sandbox" className="form">
      <h3>Bash sandbox</h3>
      <p className="muted" data-testid="sandbox-status">
        {status ? `Sandbox: ${sandboxStatusText(status)}.` : 'Checking…'}
      </p>
    </section>
  );
}
