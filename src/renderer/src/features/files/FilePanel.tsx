// The project's files beside the transcript: a folder tree, or with a filter
// the matching files anywhere in the project. Read-only: a click mentions a
// file in the composer (`@path`); protected files are shown marked and can be
// neither opened nor mentioned; .git/ is not listed.
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { FileRow } from './FileRow';
import { FolderTree } from './FolderTree';
import { useFileSearch } from './useFileSearch';
import './Files.css';

export function FilePanel({ busy }: { busy: boolean }) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const [generation, setGeneration] = useState(0);
  const query = filter.trim() === '' ? null : filter.trim();
  const search = useFileSearch(query, generation);

  // A turn may have created or removed files: look again when it ends.
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (wasBusy.current && !busy) setGeneration((n) => n + 1);
    wasBusy.current = busy;
  }, [busy]);

  return (
    <aside className="file-panel" aria-labelledby={`${id}-title`} data-testid="file-panel">
      <div className="file-panel-head">
        <h2 id={`${id}-title`} className="file-panel-title">
          Files
        </h2>
        <button type="button" className="small" onClick={() => setGeneration((n) => n + 1)}>
          Refresh
        </button>
      </div>
      <label htmlFor={`${id}-filter`} className="visually-hidden">
        Filter files
      </label>
      <input id={`${id}-filter`} type="search" className="file-filter" placeholder="Filter files" value={filter} onChange={(event) => setFilter(event.target.value)} />
      <p className="muted small file-panel-hint">Click a file to mention it in your message.</p>
      {/* It scrolls, and may hold nothing to focus (an empty project, no match): focusable itself, so the keyboard can scroll it. */}
      <div className="file-panel-body" role="region" aria-label="Project files" tabIndex={0}>
        {query === null ? (
          <FolderTree path="." generation={generation} />
        ) : (
          <>
            <ErrorMessage text={search.error} />
            {search.result && search.result.matches.length === 0 && <p className="muted small">No file matches “{query}”.</p>}
            {search.result && search.result.matches.length > 0 && (
              <ul className="file-tree" aria-label={`Files matching ${query}`}>
                {search.result.matches.map((file) => (
                  <li key={file.path}>
                    <FileRow file={file} label={file.path} />
                  </li>
                ))}
                {search.result.more > 0 && <li className="muted small">{search.result.more.toLocaleString()} more: type more of the name</li>}
              </ul>
            )}
            {search.result?.truncated && <p className="muted small">The search stopped before the end of a very large project; type more of the path.</p>}
          </>
        )}
      </div>
    </aside>
  );
}
