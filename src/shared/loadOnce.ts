// Something loaded once per process and shared by every caller after: the
// shell parser, the search worker's script, the sandbox's filter. A load that
// fails is not kept, so the next call tries again rather than repeating an
// error whose cause (a full disk, a missing file) may be gone.

/** `load` on the first call, its promise shared after; forgotten when it rejects (or throws). */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    // Through a promise, so a load that throws before it returns one is a rejection like any other.
    loading ??= new Promise<T>((resolve) => resolve(load())).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}
