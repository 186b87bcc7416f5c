// A tool card while and after it runs: how long it has been running, a
// command's output as it arrives (the newest lines, so the end is what is in
// view, without a scroll area of its own), and once a command has ended, how
// it ended (its exit code) in the card's header.
import { commandEnding } from '../../../../shared/commandEnding';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import type { ToolCardItem } from './transcriptModel';
import { elapsedText, useNow } from './useNow';
import './ToolProgress.css';

/** Lines of live output shown; the rest is in the result once the command ends. */
export const LIVE_LINES_SHOWN = 12;

/** The last `count` lines of `text` (a trailing newline ends a line, it does not start one), and how many came before. */
export function lastLines(text: string, count: number): { lines: string; hidden: number } {
  const all = text.replace(/\n$/, '').split('\n');
  const hidden = Math.max(0, all.length - count);
  return { lines: all.slice(hidden).join('\n'), hidden };
}

/** How a command ended ("Exit code 0"), for the card's header; nothing for other tools or before the end. */
export function ToolEnding({ card }: { card: ToolCardItem }) {
  const isCommand = card.tool ? card.tool.kind === 'bash' : card.name === 'bash';
  const ending = card.result && isCommand ? commandEnding(card.result.output) : null;
  if (!ending) return null;
  return (
    <span className={`tool-ending ${ending.ok ? 'tool-ending-ok' : 'tool-ending-failed'}`} data-testid="command-ending">
      {ending.text}
    </span>
  );
}

/** While the call runs: its elapsed time and live output. */
export function ToolProgress({ card }: { card: ToolCardItem }) {
  const running = card.result === null && card.runningSince !== null;
  const now = useNow(running);
  if (card.result !== null || card.runningSince === null) return null;
  const live = card.live;
  const shown = live ? lastLines(live.text, LIVE_LINES_SHOWN) : null;
  const earlier = shown && (shown.hidden > 0 || (live?.skipped ?? 0) > 0);
  return (
    <div className="tool-progress" data-testid="tool-progress">
      <p className="muted small tool-running" role="status">
        Running… <span data-testid="tool-elapsed">{elapsedText(now - card.runningSince)}</span>
      </p>
      {shown && (
        <>
          {earlier && <p className="muted small">Earlier output is shown in the result when the command ends; the newest lines:</p>}
          <pre className="tool-output tool-live-output" data-testid="live-output" aria-live="off">
            {markHiddenCharacters(shown.lines)}
          </pre>
        </>
      )}
    </div>
  );
}
