// Settings' "External tools (MCP)" section: the servers in ~/.mino/mcp.json,
// where each one runs or is reached, whether it connects and how many tools
// it offers. Credentials never reach this page; the service leaves them out.
// A check starts the servers, which can take seconds, so it runs in the
// background and the rest of the dialog stays usable.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { McpServerStatus, McpStatus } from '../../../../shared/ipc';
import { api, errorMessage } from '../../lib/api';
import { ErrorMessage } from '../../components/ErrorMessage';

const EXAMPLE_CONFIG = '{"servers": [{"name": "files", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}]}';

function transportText(server: McpServerStatus): string {
  return server.transport === 'stdio' ? 'Local command' : 'Remote (HTTP)';
}

function stateBadge(server: McpServerStatus): { text: string; className: string } {
  if (server.state === 'connected') {
    const tools = server.toolCount === undefined ? '' : `, ${server.toolCount} ${server.toolCount === 1 ? 'tool' : 'tools'}`;
    return { text: `Connected${tools}`, className: 'badge badge-ok' };
  }
  if (server.state === 'failed') return { text: 'Failed', className: 'badge badge-denied' };
  return { text: 'Not connected', className: 'badge badge-neutral' };
}

function ServerItem({ server }: { server: McpServerStatus }) {
  const badge = stateBadge(server);
  return (
    <li className="session-item" data-testid="mcp-server" aria-label={`MCP server ${server.name}`}>
      <div className="session-summary">
        <span className="recent-name">{server.name}</span>
        <span className="recent-path">
          {transportText(server)}: <span className="session-id">{server.destination}</span>
        </span>
        {server.state === 'failed' && server.error && <span className="error small">{server.error}</span>}
        {server.state === 'not_connected' && <span className="muted small">Open a project to check it: servers start in the project folder.</span>}
      </div>
      <span className={badge.className} data-testid="mcp-server-state">
        {badge.text}
      </span>
    </li>
  );
}

/** Checks when `open` becomes true and again on request; a result that arrives after closing is dropped. */
export function McpServersSection({ open }: { open: boolean }) {
  const ids = useId();
  const [status, setStatus] = useState<McpStatus | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Each check has a number; only the latest one, while the dialog is open, may update the view.
  const latest = useRef(0);

  const check = useCallback(() => {
    const run = ++latest.current;
    setChecking(true);
    setError(null);
    api.getMcpStatus().then(
      (value) => {
        if (run !== latest.current) return;
        setStatus(value);
        setChecking(false);
      },
      (failure: unknown) => {
        if (run !== latest.current) return;
        setError(errorMessage(failure));
        setChecking(false);
      },
    );
  }, []);

  useEffect(() => {
    if (!open) return;
    check();
    return () => {
      latest.current += 1;
      setChecking(false);
    };
  }, [open, check]);

  return (
    <section className="form" aria-labelledby={`${ids}-title`} aria-busy={checking}>
      <h3 id={`${ids}-title`}>External tools (MCP)</h3>
      {status && (
        <p className="muted small">
          Configured in <span className="session-id">{status.configPath}</span>. Edit it to add, change or remove servers; check again afterwards.
        </p>
      )}
      {status && status.problems.length > 0 && (
        <ul className="error small" aria-label="Problems in the MCP configuration">
          {status.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {status && status.servers.length === 0 && (
        <p className="muted small" data-testid="mcp-empty">
          No MCP servers are configured. Add them to {status.configPath}, for example: <span className="session-id">{EXAMPLE_CONFIG}</span>
        </p>
      )}
      {status && status.servers.length > 0 && (
        <ul className="session-list" aria-label="MCP servers">
          {status.servers.map((server) => (
            <ServerItem key={server.name} server={server} />
          ))}
        </ul>
      )}
      <ErrorMessage text={error} />
      <p className="muted small" aria-live="polite">
        {checking ? 'Checking connections… starting each server can take a few seconds.' : ''}
      </p>
      <div className="actions">
        <button type="button" onClick={check} disabled={checking}>
          {checking ? 'Checking…' : 'Check connections'}
        </button>
      </div>
    </section>
  );
}
