// One tool call as a card: what was asked for, who decided, what came back.
// Whether the output starts collapsed is main's word (the tool's display,
// sent with the call): reads can be long and nobody had to approve them.
import type { ToolStatus } from '../../../../shared/domain';
import { allowedRecordTitle, askedTitle, ruleAllowedTitle } from '../../../../shared/transcriptText';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import { ConfirmationFields, ConfirmationView } from '../../components/ConfirmationView';
import { argumentFields } from './argumentFields';
import type { ToolCardItem } from './transcriptModel';
import { ToolEnding, ToolProgress } from './ToolProgress';
import { OutputDialog } from './OutputDialog';
import { useState } from 'react';

const STATUS_TEXT: Record<ToolStatus, string> = {
  completed: 'completed',
  denied: 'denied',
  failed: 'failed',
  invalid_arguments: 'invalid_arguments',
  unknown: 'unknown',
  error: 'error',
};

export function toolCardTitle(card: Pick<ToolCardItem, 'name' | 'asked' | 'mode' | 'confirmation'>): string {
  if (card.confirmation?.rules && card.asked === false) return ruleAllowedTitle(card.name, card.confirmation.rules);
  if (card.confirmation && card.asked === false && card.mode) return allowedRecordTitle(card.name, card.mode);
  return askedTitle(card.name);
}

/** Who let the call run or stopped it, in a few words; null when nothing was decided. */
export function decisionText(card: ToolCardItem): string | null {
  if (card.decision === 'deny') return 'Refused by policy';
  if (card.asked === true) {
    if (card.approved === true) return 'Approved by you';
    if (card.approved === false) return 'Denied by you';
    return card.result ? 'Not answered' : 'Waiting for your answer';
  }
  if (card.asked === false && card.confirmation?.rules) return 'Allowed by your rule';
  if (card.asked === false && card.mode) return `Allowed by ${card.mode} mode`;
  if (card.decision === 'allow') return 'Allowed without asking (read-only)';
  if (card.decision === 'ask') return 'Asks first';
  return null;
}

function decisionTone(card: ToolCardItem): string {
  if (card.decision === 'deny' || card.approved === false) return 'badge-denied';
  if (card.approved === true || card.decision === 'allow') return 'badge-ok';
  return 'badge-neutral';
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The arguments of a call with no confirmation, as labelled text when they are a JSON object. */
function CallArguments({ text }: { text: string }) {
  const fields = argumentFields(text);
  if (fields === null) return <pre className="confirmation-fields muted">{markHiddenCharacters(text)}</pre>;
  return (
    <div className="confirmation">
      <ConfirmationFields confirmation={{ fields }} />
    </div>
  );
}

interface ToolCardProps {
  card: ToolCardItem;
  expanded: boolean;
  onToggle(): void;
}

/** Whether the card offers its whole output in a view of its own: a command's (its card shows the newest lines), or any long one. */
function offersWholeOutput(card: ToolCardItem): boolean {
  if (!card.result || card.result.output === '') return false;
  const isCommand = card.tool ? card.tool.kind === 'bash' : card.name === 'bash';
  return isCommand || lineCount(card.result.output) > 12;
}

export function ToolCard({ card, expanded, onToggle }: ToolCardProps) {
  const [viewing, setViewing] = useState(false);
  const decision = decisionText(card);
  const collapsible = card.tool?.foldsOutput === true;
  const showOutput = !collapsible || expanded;
  const outputId = `output-${card.key}`;
  return (
    <article className="tool-card" aria-label={toolCardTitle(card)} data-testid="tool-card" data-tool={card.name} data-status={card.result?.status ?? 'running'}>
      <header className="tool-card-header">
        <h3 className="tool-card-title">{toolCardTitle(card)}</h3>
        {decision && (
          <span className={`badge ${decisionTone(card)}`} data-testid="decision-badge">
            {decision}
          </span>
        )}
        <ToolEnding card={card} />
      </header>
      {card.confirmation ? (
        // What was shown before it ran stays on the card: fields and the whole diff.
        <ConfirmationView confirmation={card.confirmation} showWarning={false} previewWithDiff={false} />
      ) : (
        card.arguments !== '' && <CallArguments text={card.arguments} />
      )}
      {card.result ? (
        <div className="tool-result">
          <div className="tool-result-bar">
            <span className={`badge status-${card.result.status}`} data-testid="result-status">
              [Tool result: {STATUS_TEXT[card.result.status]}]
            </span>
            {collapsible && (
              <button type="button" className="ghost small" aria-expanded={expanded} aria-controls={outputId} onClick={onToggle}>
                {expanded ? 'Hide output' : `Show output (${lineCount(card.result.output)} lines)`}
              </button>
            )}
            {offersWholeOutput(card) && (
              <button type="button" className="ghost small" onClick={() => setViewing(true)}>
                Open whole output
              </button>
            )}
          </div>
          {showOutput && card.result.output !== '' && (
            <pre className="tool-output" id={outputId} data-testid="tool-output">
              {markHiddenCharacters(card.result.output)}
            </pre>
          )}
        </div>
      ) : (
        <ToolProgress card={card} />
      )}
      {viewing && card.result && <OutputDialog title={`Output of ${card.name}`} output={card.result.output} onClose={() => setViewing(false)} />}
    </article>
  );
}
