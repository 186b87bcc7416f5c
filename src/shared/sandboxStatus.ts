// What sandboxes a bash command here, as Settings and `mino exec` tell it: the
// program and its version, or why commands run unsandboxed (no sandbox on this
// machine, or the person turned it off). Main learns it from the same check
// every command goes through (commandSandbox), so what is shown is what runs.
import { z } from 'zod';

export const SandboxStatusSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    kind: z.enum(['bwrap', 'seatbelt']),
    /** The program's absolute path. */
    program: z.string(),
    /** The program as it names itself: "bubblewrap 0.8.0", "macOS sandbox-exec". */
    version: z.string(),
  }),
  z.object({
    available: z.literal(false),
    /** Why commands are not sandboxed, and what to do about it, for a person. */
    reason: z.string(),
  }),
]);
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>;

const PLATFORM: Readonly<Record<Extract<SandboxStatus, { available: true }>['kind'], string>> = { bwrap: 'Linux', seatbelt: 'macOS' };

/** "Linux bubblewrap 0.8.0 at /usr/bin/bwrap", "macOS sandbox-exec at /usr/bin/sandbox-exec", or "not available: <reason>". */
export function sandboxStatusText(status: SandboxStatus): string {
  if (!status.available) return `not available: ${status.reason}`;
  const platform = PLATFORM[status.kind];
  const named = status.version.startsWith(`${platform} `) ? status.version : `${platform} ${status.version}`;
  return `${named} at ${status.program}`;
}

/** The fields a status shows, and no others (what main found may carry more). */
export function sandboxStatusOf(found: SandboxStatus): SandboxStatus {
  return found.available ? { available: true, kind: found.kind, program: found.program, version: found.version } : { available: false, reason: found.reason };
}
