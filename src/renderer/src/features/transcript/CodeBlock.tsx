// A fenced code block of an answer: its language, the code (highlighted once
// the block is finished; see SafeMarkdown) and a Copy button. What is copied
// is the code as shown, hidden characters as their ⟨U+XXXX⟩ marks included,
// so nothing reaches the clipboard that the person could not see.
import { useEffect, useMemo, useState } from 'react';
import { HIGHLIGHT_MAX_CHARS, highlightToReact, languageForFence } from '../../lib/highlight';
import { errorMessage } from '../../lib/api';

const COPIED_FOR_MS = 2000;

interface CodeBlockProps {
  code: string;
  /** The fence's info string (`ts`, `python title="x"`), or null. */
  info: string | null;
  /** False while the block is still streaming in: plain text, so each delta costs no highlighting. */
  highlight: boolean;
}

export function CodeBlock({ code, info, highlight }: CodeBlockProps) {
  const [copied, setCopied] = useState(false);
  const [copyError, setCopyError] = useState<string | null>(null);
  const language = languageForFence(info);
  const name = (info ?? '').trim().split(/\s+/)[0] ?? '';
  // Past the cap the grammars would hold the window for a second or more (the diff view's limit, for the same reason).
  const tooLong = code.length > HIGHLIGHT_MAX_CHARS;
  const colour = highlight && !tooLong;
  const body = useMemo(() => (colour ? highlightToReact(code, language) : code), [code, language, colour]);
  // The fence's content ends in the newline before the closing fence; that newline is not part of the code.
  const text = code.endsWith('\n') ? code.slice(0, -1) : code;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    setCopyError(null);
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      (failure: unknown) => setCopyError(`Could not copy the code (${errorMessage(failure)}); select it and copy instead.`),
    );
  };

  return (
    <div className="code-block" data-testid="code-block">
      <div className="code-block-bar">
        <span className="code-block-language">
          {name || 'text'}
          {tooLong && language ? ` · not coloured: longer than ${HIGHLIGHT_MAX_CHARS.toLocaleString('en')} characters` : null}
        </span>
        <button type="button" className="ghost small code-copy" onClick={copy} aria-label={copied ? 'Copied' : `Copy ${name || 'code'}`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre>
        <code className={language ? `language-${language}` : undefined}>{body}</code>
      </pre>
      {copyError && (
        <p className="error small" role="alert">
          {copyError}
        </p>
      )}
    </div>
  );
}
