// Asks the service for the project's files matching a query, a moment after
// the person stops typing; an answer to an older query is dropped.
import { useEffect, useState } from 'react';
import type { FileSearch } from '../../../../shared/files';
import { api, errorMessage } from '../../lib/api';

const DEBOUNCE_MS = 80;

/** `generation`: a change asks again for the same query (the files may have changed). */
export function useFileSearch(query: string | null, generation = 0): { result: FileSearch | null; error: string | null } {
  const [result, setResult] = useState<FileSearch | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (query === null) {
      setResult(null);
      setError(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api.findProjectFiles({ query }).then(
        (found) => {
          if (!live) return;
          setResult(found);
          setError(null);
        },
        (failure: unknown) => live && setError(errorMessage(failure)),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, generation]);
  return { result: query === null ? null : result, error };
}
