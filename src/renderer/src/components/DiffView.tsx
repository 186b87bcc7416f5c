// A unified diff with added and removed lines told apart by colour and by
// their +/- sign (the sign stays, so the colour is never the only cue), and
// hidden characters shown as ⟨U+XXXX⟩ marks.
import { markHiddenCharacters } from '../../../shared/hiddenCharacters';

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('====')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  return 'diff-context';
}

export function DiffView({ diff }: { diff: string }) {
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  return (
    <section aria-label="Changes">
      <h4 className="confirmation-heading">Changes</h4>
      {/* Focusable so a keyboard can scroll a long diff. */}
      <pre className="diff" tabIndex={0} data-testid="diff">
        {lines.map((line, index) => (
          <span key={index} className={`diff-line ${lineClass(line)}`}>
            {markHiddenCharacters(line)}
            {'\n'}
          </span>
        ))}
      </pre>
    </section>
  );
}
