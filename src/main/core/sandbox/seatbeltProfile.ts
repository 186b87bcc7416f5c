// The Seatbelt profile (macOS `sandbox-exec -p PROFILE`) for one sandboxed
// command. Seatbelt has no namespaces: it judges each operation by the path it
// names, so the project's private temp is a directory Mino makes per call, a
// home cannot be shown empty but is made unreadable but for what the person
// allowed, and renaming the folder that holds a masked file is refused too
// (else the file would be readable under its new path). In a profile the last
// matching rule wins: broad rules come first, the exceptions after them.
import * as path from 'node:path';
import { foldersHolding, type SandboxPlan } from './plan';
import { isSameOrInside } from './readableHome';

/** Devices a command may still write: its output, a terminal, the null device. */
const WRITABLE_DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper'];

/** `tempDir` is the per-call directory Mino made for the command (its TMPDIR); real paths throughout. */
export function seatbeltProfile(plan: SandboxPlan, tempDir: string): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    // No network: neither the internet nor services on this machine (loopback and Unix sockets alike: connecting
    // to a socket file is network-outbound, so the Docker socket or an agent's is refused as well).
    '(deny network*)',
    // Other processes (Mino among them) can be neither inspected nor signalled: their environment stays theirs.
    '(deny process-info*)',
    '(allow process-info* (target same-sandbox))',
    '(deny signal)',
    '(allow signal (target same-sandbox))',
    ...homeRules(plan, tempDir),
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
    const holders = foldersHolding([...plan.maskedFiles, ...plan.maskedDirs, ...plan.readOnly], plan.projectDir);
    if (holders.length > 0) lines.push(`(deny file-write-unlink ${holders.map(literal).join(' ')})`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Each home unreadable, then what may be read in it back: the allowed
 * folders, the project and the temp directory when they lie inside, and the
 * bare metadata (not the listing) of each folder on the way to them, so a
 * path through the home still resolves and `pwd` or git's search for a
 * repository upwards still work.
 */
function homeRules(plan: SandboxPlan, tempDir: string): string[] {
  if (plan.homes.length === 0) return [];
  const shown = [...plan.readable, plan.projectDir, tempDir].filter((entry) => plan.homes.some((home) => isSameOrInside(entry, home)));
  const links = plan.readableLinks.map((link) => link.path);
  const onTheWay = new Set<string>();
  for (const entry of [...shown, ...links]) {
    const home = plan.homes.find((h) => isSameOrInside(entry, h))!;
    for (let dir = path.dirname(entry); isSameOrInside(dir, home); dir = path.dirname(dir)) {
      onTheWay.add(dir);
      if (dir === home) break;
    }
  }
  const lines = [`(deny file-read* ${plan.homes.map(subpath).join(' ')})`];
  if (onTheWay.size > 0) lines.push(`(allow file-read-metadata ${[...onTheWay].sort().map(literal).join(' ')})`);
  const allowed = [...shown.map(subpath), ...links.map(literal)];
  if (allowed.length > 0) lines.push(`(allow file-read* ${allowed.join(' ')})`);
  return lines;
}

const subpath = (p: string) => `(subpath ${quote(p)})`;
const literal = (p: string) => `(literal ${quote(p)})`;
const regex = (pattern: string) => `(regex #"${pattern}")`;

/** A Seatbelt string: backslashes and double quotes escaped; a control character could end the rule, so it is refused. */
export function quote(text: string): string {
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new Error(`a path with a control character cannot be written into a sandbox profile: ${JSON.stringify(text)}`);
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
