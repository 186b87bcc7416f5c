// A command the person lets run outside the sandbox has their full rights,
// and still ends with the call. Mino cannot become a subreaper, so a process
// that leaves the command's group and session and drops its mark (a daemon's
// double fork) would otherwise outlive it unseen. Where a trusted bwrap works,
// the command runs in its own PID namespace and nothing else changes: the
// host's whole file system, devices and network as they are. When the command
// exits, the namespace's init exits, and the kernel ends every process left in
// it; if Mino dies, --die-with-parent does the same.
import type { ConfirmationField } from '../../../shared/domain';
import type { SandboxAvailability } from './availability';

/** A trusted bubblewrap that works on this machine (see availability.ts). */
export type TrustedBwrap = Extract<SandboxAvailability, { available: true }> & { kind: 'bwrap' };

/** What a person reads where no process namespace can be had (macOS, no trusted bwrap, a kernel that refuses one). */
export const OUTLIVE_WARNING = 'Processes it starts may outlive it: this machine cannot give it its own process namespace.';

/** The bwrap that can give an unsandboxed command its own process namespace, or null. */
export function namespaceProvider(machine: SandboxAvailability): TrustedBwrap | null {
  return machine.available && machine.kind === 'bwrap' ? { ...machine, kind: 'bwrap' } : null;
}

/** `command` as it would run without a sandbox, e.g. ['bash', '-c', command], wrapped in its own PID namespace. */
export function outsideLaunch(bwrap: TrustedBwrap, command: readonly string[], projectDir: string): { file: string; args: string[] } {
  return {
    file: bwrap.program,
    args: [
      // The host's file system as it is, devices included (--dev-bind), mounts below / too.
      '--dev-bind', '/', '/',
      '--unshare-pid',
      '--die-with-parent',
      // A /proc for the new namespace: ps and kill see the command's own processes.
      '--proc', '/proc',
      '--chdir', projectDir,
      '--', ...command,
    ],
  };
}

/**
 * What the confirmation says about the processes an unsandboxed command
 * starts. Not as root, bwrap makes the namespace inside a user namespace of
 * its own, with no_new_privs set: sudo and other setuid programs cannot gain
 * rights there, and files of other accounts show as owned by nobody.
 */
export function processesField(contained: boolean, uid: number | undefined): ConfirmationField {
  if (!contained) return { label: 'Processes', value: 'may outlive it: this machine cannot give it its own process namespace' };
  const notRoot = uid !== undefined && uid !== 0;
  return {
    label: 'Processes',
    value:
      'end with it: it runs in its own process namespace, where it sees only its own processes' +
      (notRoot ? '; sudo and other setuid programs cannot gain rights in it' : ''),
  };
}
