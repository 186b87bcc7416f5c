// The bubblewrap (Linux) arguments for one sandboxed command. bwrap starts
// from an empty root; what the command sees is only what is added here, an
// allow-list. Order matters, since a later mount covers an earlier one: the
// system first, then the empty homes, the folders allowed in them, the
// project (writable, so an allowed folder inside it is just part of it), the
// project's `.git` entries read-only, and the masks last, so nothing can
// uncover them.
import { foldersHolding, type SandboxPlan } from './plan';
import type { SystemEntry } from './systemView';

/**
 * Variables that name what the sandbox hides (the runtime directory, the
 * session bus, the ssh and gpg agents, a display or Docker's socket): unset,
 * so a program fails plainly instead of trying a path that is not there.
 */
export const HIDDEN_VARIABLES: readonly string[] = [
  'XDG_RUNTIME_DIR',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DOCKER_HOST',
  'WAYLAND_DISPLAY',
  'DISPLAY',
  'XAUTHORITY',
];

export interface BwrapSetting {
  /** What of the system is shown (systemView.ts). */
  system: readonly SystemEntry[];
  /** The descriptor, in bwrap, that the seccomp filter is read from (seccomp.ts). */
  seccompFd: number;
}

export function bwrapArguments(plan: SandboxPlan, command: readonly string[], setting: BwrapSetting): string[] {
  const args = [
    // Every namespace bwrap knows (user, mount, pid, network, ipc, uts, cgroup): no network at all, not even
    // the host's loopback; /proc shows only the command's own processes.
    '--unshare-all',
    // The sandbox ends with Mino, and with it every process inside (the PID namespace's init takes them along),
    // whatever setsid or set -m did.
    '--die-with-parent',
    // A new terminal session: the command cannot push keystrokes into the terminal Mino runs in.
    '--new-session',
  ];
  for (const entry of setting.system) {
    if (entry.kind === 'link') args.push('--symlink', entry.target, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  args.push('--ro-bind', '/sys', '/sys', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  // Each home is a scratch space of the command's own, thrown away with it, showing only what the person allowed.
  for (const home of plan.homes) args.push('--tmpfs', home);
  for (const entry of plan.readable) args.push('--ro-bind', entry, entry);
  for (const link of plan.readableLinks) args.push('--symlink', link.target, link.path);
  args.push('--bind', plan.projectDir, plan.projectDir);
  // A mount point cannot be renamed (EBUSY): each folder on the way to a .git is bound onto itself, so
  // `mv sub sub_old` cannot carry a nested repository's .git away and leave room for a forged one.
  for (const dir of foldersHolding(plan.readOnly, plan.projectDir)) args.push('--bind', dir, dir);
  for (const entry of plan.readOnly) args.push('--ro-bind', entry, entry);
  for (const file of plan.maskedFiles) args.push('--ro-bind', '/dev/null', file);
  for (const dir of plan.maskedDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  // bwrap's own root (the folders it made to mount on, /mnt/x for a project at /mnt/x/app) is read-only too, so a
  // write outside the project fails plainly instead of vanishing with the sandbox; /tmp and the homes stay scratch.
  args.push('--remount-ro', '/');
  args.push('--seccomp', String(setting.seccompFd));
  for (const name of HIDDEN_VARIABLES) args.push('--unsetenv', name);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', plan.projectDir, '--', ...command);
  return args;
}
