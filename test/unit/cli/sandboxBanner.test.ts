// What `mino exec`'s banner says of the sandbox: the program that builds it
// and its version, or why commands are not sandboxed; the JSON session line
// carries the same as fields.
import { describe, expect, it } from 'vitest';
import { jsonPrinter, textPrinter, type SessionBanner } from '../../../src/cli/printers';
import type { SandboxStatus } from '../../../src/shared/sandboxStatus';

function collect() {
  const chunks: string[] = [];
  return { output: { write: (text: string) => void chunks.push(text) }, text: () => chunks.join('') };
}

const banner = (sandbox: SandboxStatus): SessionBanner => ({ id: 'a'.repeat(32), contextWindow: 128_000, contextWindowIsDefault: true, mode: 'manual', sandbox });

function sandboxLine(sandbox: SandboxStatus): string {
  const out = collect();
  textPrinter(out.output, collect().output).session(banner(sandbox));
  return out.text().split('\n')[3];
}

describe("mino exec's sandbox line", () => {
  it.each<[string, SandboxStatus, string]>([
    ['bubblewrap', { available: true, kind: 'bwrap', program: '/usr/bin/bwrap', version: 'bubblewrap 0.8.0' }, 'Sandbox: Linux bubblewrap 0.8.0 at /usr/bin/bwrap.'],
    [
      'sandbox-exec',
      { available: true, kind: 'seatbelt', program: '/usr/bin/sandbox-exec', version: 'macOS sandbox-exec' },
      'Sandbox: macOS sandbox-exec at /usr/bin/sandbox-exec.',
    ],
    [
      'no sandbox',
      { available: false, reason: 'bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt install bubblewrap) and restart Mino' },
      'Sandbox: not available: bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt install bubblewrap) and restart Mino.',
    ],
  ])('names %s after the permission mode, before the transcript', (_what, sandbox, line) => {
    expect(sandboxLine(sandbox)).toBe(line);
  });

  it('puts the same in the JSON session line', () => {
    const out = collect();
    const sandbox: SandboxStatus = { available: true, kind: 'bwrap', program: '/usr/bin/bwrap', version: 'bubblewrap 0.8.0' };
    jsonPrinter(out.output).session(banner(sandbox));
    expect(JSON.parse(out.text())).toEqual({ type: 'session', id: 'a'.repeat(32), context_window: 128_000, mode: 'manual', sandbox });
  });
});
