// A diff a person can review: old and new line numbers, the file's syntax
// highlighted, the changed words marked within changed lines, unified or side
// by side (one choice for the window, remembered), long lines wrapped. It
// never scrolls on its own: the dialog or the transcript around it is the one
// scroll area, so the whole change is reachable by scrolling that.
// Added and removed lines keep a +/- sign (drawn by the CSS), so the colour is
// never the only cue; hidden characters are shown as ⟨U+XXXX⟩ marks.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Decoration, Diff, Hunk, markEdits, tokenize, type HunkData, type HunkTokens } from 'react-diff-view';
import 'react-diff-view/style/index.css';
import { markHiddenCharacters } from '../../../shared/hiddenCharacters';
import { HIGHLIGHT_MAX_CHARS, languageForPath, refractor, type Language } from '../lib/highlight';
import { diffModel, type DiffModel } from './diffModel';
import { setDiffLayout, useDiffLayout } from './diffLayout';
import './DiffView.css';

function parsed(diff: string): DiffModel | null {
  try {
    const model = diffModel(diff);
    return model.hunks.length > 0 ? model : null;
  } catch {
    return null;
  }
}

/** react-diff-view takes refractor 3's highlight (a node list); refractor 5 returns a root around it. */
const refractorAdapter = {
  highlight: (text: string, language: string) => refractor.highlight(text, language).children,
};

function contentLength(hunks: HunkData[]): number {
  return hunks.reduce((sum, hunk) => sum + hunk.changes.reduce((total, change) => total + change.content.length + 1, 0), 0);
}

function tokensOf(hunks: HunkData[], language: Language | null): HunkTokens | null {
  const enhancers = [markEdits(hunks, { type: 'block' })];
  try {
    if (language !== null) {
      // The adapter's node types are refractor 5's; the library reads the same shape.
      return tokenize(hunks, { highlight: true, refractor: refractorAdapter as never, language, enhancers });
    }
    return tokenize(hunks, { enhancers });
  } catch {
    // A grammar that cannot take this text: the words are still marked, without colours.
    try {
      return tokenize(hunks, { enhancers });
    } catch {
      return null;
    }
  }
}

/** Marked words at once; syntax colours a moment later, when the change is short enough to colour. */
function useTokens(model: DiffModel | null, language: Language | null): { tokens: HunkTokens | null; coloured: boolean; tooLong: boolean } {
  const plain = useMemo(() => (model ? tokensOf(model.hunks, null) : null), [model]);
  const tooLong = model !== null && language !== null && contentLength(model.hunks) > HIGHLIGHT_MAX_CHARS;
  const [highlighted, setHighlighted] = useState<{ model: DiffModel; tokens: HunkTokens | null } | null>(null);
  useEffect(() => {
    if (!model || language === null || tooLong) return;
    const timer = setTimeout(() => setHighlighted({ model, tokens: tokensOf(model.hunks, language) }), 0);
    return () => clearTimeout(timer);
  }, [model, language, tooLong]);
  if (highlighted && highlighted.model === model) return { tokens: highlighted.tokens, coloured: true, tooLong };
  return { tokens: plain, coloured: false, tooLong };
}

interface DiffViewProps {
  diff: string;
  heading?: string;
  /** Controls shown on a hunk's header row (the approval dialog's Reject / Keep), by the hunk's index. */
  hunkAction?: (index: number) => ReactNode;
  /** Hunks the person rejected: drawn struck through, under a header that says so. */
  rejected?: ReadonlySet<number>;
}

export function DiffView({ diff, heading = 'Changes', hunkAction, rejected }: DiffViewProps) {
  const layout = useDiffLayout();
  const model = useMemo(() => parsed(diff), [diff]);
  const language = model ? languageForPath(model.path) : null;
  const { tokens, coloured, tooLong } = useTokens(model, language);
  // A new file has no old side to put beside the new one.
  const created = model !== null && model.removed === 0 && model.hunks.every((hunk) => hunk.oldLines === 0);

  return (
    <section className="diff-view" aria-label={heading} data-testid="diff" data-layout={layout} data-language={language ?? ''} data-coloured={coloured}>
      <header className="diff-view-header">
        <h4 className="confirmation-heading">{heading}</h4>
        {model && (
          <span className="diff-view-stats muted small" data-testid="diff-stats">
            {model.path && <span className="diff-view-path">{model.path}</span>}
            <span className="diff-view-added">+{model.added}</span>
            <span className="diff-view-removed">−{model.removed}</span>
          </span>
        )}
        {model && !created && (
          <span className="diff-view-layout" role="group" aria-label="Diff layout">
            <button type="button" className="ghost small" aria-pressed={layout === 'unified'} onClick={() => setDiffLayout('unified')}>
              Unified
            </button>
            <button type="button" className="ghost small" aria-pressed={layout === 'split'} onClick={() => setDiffLayout('split')}>
              Side by side
            </button>
          </span>
        )}
      </header>
      {tooLong && (
        <p className="muted small" data-testid="diff-uncoloured">
          This change is too long to colour quickly, so it is shown without syntax colours.
        </p>
      )}
      {model ? (
        <Diff viewType={created ? 'unified' : layout} diffType={created ? 'add' : 'modify'} hunks={model.hunks} tokens={tokens} className="diff-view-table">
          {(hunks) =>
            hunks.flatMap((hunk, index) => [
              <Decoration key={`d-${hunk.content}`} className={rejected?.has(index) ? 'diff-view-hunk rejected' : 'diff-view-hunk'}>
                <span className="diff-view-hunk-header" data-testid="diff-hunk-header">
                  <span>{hunk.content}</span>
                  {rejected?.has(index) && <span className="diff-view-hunk-rejected">Rejected: not written</span>}
                  {hunkAction?.(index)}
                </span>
              </Decoration>,
              <Hunk key={`h-${hunk.content}`} hunk={hunk} />,
            ])
          }
        </Diff>
      ) : (
        // Not a diff parsePatch can read: the text as it came, marked, never dropped.
        <pre className="diff-view-raw">{markHiddenCharacters(diff)}</pre>
      )}
    </section>
  );
}
