// The Seatbelt profile (macOS `sandbox-exec -p PROFILE`) for one sandboxed
// command. Seatbelt has no namespaces: it judges each operation by the path it
// names, so the project's private temp is a directory Mino makes per call, and
// renaming the folder that holds a masked file is refused too (else the file
// would be readable under its new path). In a profile the last matching rule
// wins: broad rules come first, the exceptions after them.
import * as path from 'node:path';
import type { SandboxPlan } from './plan';

/** Devices a command may still write: its output, a terminal, the null device. */
const WRITABLE_DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper'];

/** `tempDir` is the per-call directory Mino made for the command (its TMPDIR); real paths throughout. */
export function seatbeltProfile(plan: SandboxPlan, tempDir: string): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    // No network: neither the internet nor services on this machine (loopback and Unix sockets alike).
    '(deny network*)',
    // Other processes (Mino among them) can be neither inspected nor signalled: their environment stays theirs.
    '(deny process-info*)',
    '(allow process-info* (target same-sandbox))',
    '(deny signal)',
    '(allow signal (target same-sandbox))',
    // The file system is read-only except the project, the command's temp directory and a few devices.
    '(deny file-write*)',
    `(allow file-write* ${[subpath(plan.projectDir), subpath(tempDir), ...WRITABLE_DEVICES.map(literal), regex('^/dev/fd/')].join(' ')})`,
  ];
  if (plan.readOnly.length > 0) {
    lines.push(`(deny file-write* ${plan.readOnly.map(subpath).join(' ')})`);
  }
  const masked = [...plan.maskedFiles.map(literal), ...plan.maskedDirs.map(subpath)];
  if (masked.length > 0) {
    // Unreadable and unchangeable; file-read-metadata stays, so `ls` still lists the name.
    lines.push(`(deny file-read-data file-write* ${masked.join(' ')})`);
    const holders = holdingFolders([...plan.maskedFiles, ...plan.maskedDirs, ...plan.readOnly], plan.projectDir);
    if (holders.length > 0) lines.push(`(deny file-write-unlink ${holders.map(literal).join(' ')})`);
  }
  return `${lines.join('\n')}\n`;
}

/** Every folder inside the project that holds a protected entry (not the project itself, which cannot be renamed from inside). */
function holdingFolders(entries: readonly string[], projectDir: string): string[] {
  const folders = new Set<string>();
  for (const entry of entries) {
    let dir = path.dirname(entry);
    while (dir !== projectDir && dir.startsWith(projectDir + path.sep)) {
      folders.add(dir);
      dir = path.dirname(dir);
    }
  }
  return [...folders].sort();
}

const subpath = (p: string) => `(subpath ${quote(p)})`;
const literal = (p: string) => `(literal ${quote(p)})`;
const regex = (pattern: string) => `(regex #"${pattern}")`;

/** A Seatbelt string: backslashes and double quotes escaped; a control character could end the rule, so it is refused. */
export function quote(text: string): string {
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new Error(`a path with a control character cannot be written into a sandbox profile: ${JSON.stringify(text)}`);
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
