// Shared set-up for session tests: a private temp home and a project folder.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CallValidator } from '../../../src/main/core/sessions/load';

export interface TempHome {
  home: string;
  project: string;
  sessionsDir: string;
  cleanup(): Promise<void>;
}

export async function makeTempHome(): Promise<TempHome> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-sessions-')));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await fs.mkdir(home);
  await fs.mkdir(project);
  return {
    home,
    project,
    sessionsDir: path.join(home, '.mino', 'sessions'),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}

/**
 * A pure validator like the tools' own: read_file needs a relative "path".
 * It records every call so tests can see what loading validated.
 */
export function recordingValidator(): CallValidator & { seen: Array<{ name: string; args: string }> } {
  const seen: Array<{ name: string; args: string }> = [];
  const validate = ((name: string, args: string) => {
    seen.push({ name, args });
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      return { ok: false, reason: 'arguments are not JSON' };
    }
    const p = (parsed as { path?: unknown }).path;
    if (typeof p !== 'string' || p.startsWith('/')) return { ok: false, reason: 'path must be a project-relative path' };
    return { ok: true };
  }) as CallValidator & { seen: typeof seen };
  validate.seen = seen;
  return validate;
}

export const readCall = (callId: string, p = 'src/a.ts') => ({
  type: 'function_call' as const,
  call_id: callId,
  name: 'read_file',
  arguments: JSON.stringify({ path: p }),
});
