// What Test connection found, as it said it: the failure verbatim (it names
// what failed and what to do), or the models the service offers.
import type { ConnectionReportView } from '../../../../shared/serviceViews';

export function ConnectionResult({ report }: { report: ConnectionReportView }) {
  if (report.problem) {
    return (
      <p className="error" role="alert" data-testid="connection-result" data-status="failed">
        {report.problem.message}
      </p>
    );
  }
  const models = report.models;
  const context = report.contextLength ? ` Context length: ${report.contextLength.toLocaleString('en-US')} tokens.` : '';
  return (
    <p className="success" role="status" data-testid="connection-result" data-status="ok">
      Connected to “{report.name}”.{' '}
      {models === null ? 'It offers no list of models.' : models.length === 0 ? 'It lists no models.' : `Models found: ${models.join(', ')}.`}
      {context}
    </p>
  );
}
