// One folder of the file list, loaded when it is first opened; its subfolders
// load the same way, so the window never asks for more than the person opens.
import { useEffect, useState } from 'react';
import type { FileListing } from '../../../../shared/files';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, errorMessage } from '../../lib/api';
import { FileRow } from './FileRow';

export function FolderTree({ path, generation }: { path: string; generation: number }) {
  const [listing, setListing] = useState<FileListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    let live = true;
    api.listProjectFiles({ path }).then(
      (found) => {
        if (!live) return;
        setListing(found);
        setError(null);
      },
      (failure: unknown) => live && setError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [path, generation]);

  const toggle = (dir: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(dir)) next.add(dir);
      return next;
    });

  if (error) return <ErrorMessage text={error} />;
  if (!listing) return <p className="muted small">Loading…</p>;
  if (listing.entries.length === 0) return <p className="muted small">{path === '.' ? 'The project is empty.' : 'Empty folder.'}</p>;
  return (
    <ul className="file-tree">
      {listing.entries.map((file) => (
        <li key={file.path}>
          <FileRow file={file} expanded={open.has(file.path)} onToggle={file.kind === 'dir' ? () => toggle(file.path) : undefined} />
          {file.kind === 'dir' && file.protectedBy === null && open.has(file.path) && <FolderTree path={file.path} generation={generation} />}
        </li>
      ))}
      {listing.more > 0 && <li className="muted small">{listing.more.toLocaleString()} more not shown</li>}
    </ul>
  );
}
