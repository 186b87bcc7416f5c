// When ~/.mino itself is the problem (read-only, full, not writable, a file
// where a folder belongs), nothing Mino does next can work, and nothing about
// it is a bug: the person must fix the folder. These helpers say so in words,
// so a front end reports it as a configuration problem, never as a crash.
import * as path from 'node:path';
import { MINO_DIR_NAME } from './minoHome';

/** A problem with ~/.mino or a file in it; the message names the path and what to do. */
export class MinoHomeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MinoHomeError';
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EFBIG: 'the file has reached the largest size this system allows',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOENT: 'the file does not exist',
  ENOTDIR: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
  EIO: 'an input/output error',
};

/** The errno codes that mean the folder cannot be written until the person acts. */
const HOME_PROBLEMS = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'EEXIST', 'EIO']);

export function errnoCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** A file system error in words: "the disk is full", or the error's own message. */
export function fsErrorReason(error: unknown): string {
  const code = errnoCode(error);
  if (code && REASONS[code]) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why ~/.mino cannot be used, when `error` is a file system error on a path
 * inside it (or a MinoHomeError); undefined for anything else.
 */
export function minoHomeProblem(error: unknown, homeDir: string): string | undefined {
  if (error instanceof MinoHomeError) return error.message;
  // Wrapped errors (a session log that could not be started, say) keep the file system error as their cause.
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause !== undefined && cause !== error) {
    const inner = minoHomeProblem(cause, homeDir);
    if (inner !== undefined) return inner;
  }
  const code = errnoCode(error);
  const where = (error as { path?: unknown } | undefined)?.path;
  if (!code || !HOME_PROBLEMS.has(code) || typeof where !== 'string') return undefined;
  const root = path.join(homeDir, MINO_DIR_NAME);
  if (where !== root && !where.startsWith(root + path.sep)) return undefined;
  return minoHomeMessage(root, where, error);
}

export function minoHomeMessage(root: string, where: string, error: unknown): string {
  const code = errnoCode(error);
  const advice =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'Free disk space'
      : code === 'EROFS'
        ? `Make ${root} writable (it is on a read-only file system), or set HOME to a folder Mino can write`
        : `Make ${root} a folder you can write, or set HOME to a folder Mino can write`;
  return `Mino cannot use its folder ${root}: ${fsErrorReason(error)} (at ${where}). ${advice}, then run Mino again.`;
}
