// One entry of the file list. A file or folder can be mentioned in the
// composer; a protected entry is shown as such and offers nothing; a link is
// shown and never followed.
import type { ProjectFile } from '../../../../shared/files';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import { isMentionable, requestMention } from './mentions';

interface FileRowProps {
  file: ProjectFile;
  /** Shown instead of the name (the search shows whole paths). */
  label?: string;
  /** For folders in the tree: open or closed, and how to toggle. */
  expanded?: boolean;
  onToggle?(): void;
}

export function FileRow({ file, label, expanded, onToggle }: FileRowProps) {
  // A name is shown with its hidden characters named (a bidirectional control could make it read as another name).
  const text = markHiddenCharacters(label ?? file.name);
  const shownPath = markHiddenCharacters(file.path);
  if (file.protectedBy !== null) {
    return (
      <span className="file-row file-protected" title={`Protected (${file.protectedBy}): Mino never opens or mentions it.`}>
        <span className="file-name">{text}</span> <span className="badge badge-neutral">protected</span>
      </span>
    );
  }
  if (!isMentionable(file)) {
    return (
      <span className="file-row file-inert" title={file.kind === 'link' ? 'A symbolic link: the file tools do not follow it.' : 'Not a regular file or folder.'}>
        <span className="file-name">{text}</span> <span className="badge badge-neutral">{file.kind}</span>
      </span>
    );
  }
  const mention = (
    <button type="button" className="file-mention small" onClick={() => requestMention(file.path)} aria-label={`Mention ${shownPath}`} title={`Insert @${shownPath} in the message`}>
      @
    </button>
  );
  if (file.kind === 'dir' && onToggle) {
    return (
      <span className="file-row">
        <button type="button" className="file-folder" aria-expanded={expanded ?? false} onClick={onToggle}>
          <span aria-hidden="true" className="file-caret">
            {expanded ? '▾' : '▸'}
          </span>
          <span className="file-name">{text}/</span>
        </button>
        {file.skippedInSearch && <span className="muted small"> not searched</span>}
        {mention}
      </span>
    );
  }
  return (
    <span className="file-row">
      <button type="button" className="file-open" onClick={() => requestMention(file.path)} title={`Insert @${shownPath} in the message`}>
        <span className="file-name">{file.kind === 'dir' ? `${text}/` : text}</span>
      </button>
    </span>
  );
}
