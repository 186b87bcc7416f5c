// The bubblewrap (Linux) arguments for one sandboxed command. Order matters:
// later mounts cover earlier ones, so the whole file system goes read-only
// first, then the project is made writable, then `.git` read-only again, and
// the masks come last so nothing can uncover them.
import type { SandboxPlan } from './plan';

/** Sockets through which a command could reach services that the network namespace does not cover. */
export interface HostSockets {
  /** The per-user runtime directory (XDG_RUNTIME_DIR: D-Bus, the ssh agent, ...), if any. */
  runtimeDir?: string;
  /** Other socket files to hide (the Docker socket, say), if present. */
  sockets: readonly string[];
}

export function bwrapArguments(plan: SandboxPlan, command: readonly string[], host: HostSockets = { sockets: [] }): string[] {
  const args = [
    // Every namespace bwrap knows (user, mount, pid, network, ipc, uts, cgroup): no network at all, not even
    // the host's loopback; /proc shows only the command's own processes.
    '--unshare-all',
    // The sandbox ends with Mino, and with it every process inside (the PID namespace's init takes them along),
    // whatever setsid or set -m did.
    '--die-with-parent',
    // A new terminal session: the command cannot push keystrokes into the terminal Mino runs in.
    '--new-session',
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--bind', plan.projectDir, plan.projectDir,
  ];
  for (const entry of plan.readOnly) args.push('--ro-bind', entry, entry);
  for (const file of plan.maskedFiles) args.push('--ro-bind', '/dev/null', file);
  const hiddenDirs = [...plan.maskedDirs, ...(host.runtimeDir ? [host.runtimeDir] : [])];
  for (const dir of hiddenDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const socket of host.sockets) args.push('--ro-bind', '/dev/null', socket);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', plan.projectDir, '--', ...command);
  return args;
}
