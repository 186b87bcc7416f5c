/** A record could not be saved; the turn that wanted to save it must stop at once. */
export class SessionSaveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SessionSaveError';
  }
}

/** A saved session cannot be loaded; `line` is the 1-based line at fault, when there is one. */
export class SessionLoadError extends Error {
  line?: number;
  constructor(message: string, options?: { line?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SessionLoadError';
    if (options?.line !== undefined) this.line = options.line;
  }
}
