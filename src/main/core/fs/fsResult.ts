// How the confined filesystem layer reports a refusal or an I/O failure. The
// tools map `refused` to invalid_arguments (the model can fix its call) and
// `failed` to failed (something happened that the call itself did not cause).

export interface FsFailure {
  ok: false;
  kind: 'refused' | 'failed';
  reason: string;
  /** Set when the refusal is that this project path does not exist, so a tool can suggest its own remedy. */
  missingPath?: string;
}

export function refused(reason: string, missingPath?: string): FsFailure {
  return missingPath === undefined ? { ok: false, kind: 'refused', reason } : { ok: false, kind: 'refused', reason, missingPath };
}

export function failed(reason: string): FsFailure {
  return { ok: false, kind: 'failed', reason };
}

// Defined once in src/shared/errors.ts; here for the file modules that build FsResults with it.
export { errorCode } from '../../../shared/errors';
