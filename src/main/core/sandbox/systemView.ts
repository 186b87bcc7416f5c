// The part of the system a bwrap-sandboxed command sees: the read-only
// folders programs are installed in and configured from, each as it is on
// this machine. Nothing else of the host's root is shown: not /run or /var
// (service sockets, other users' files), not /home, /root, /mnt, /media or
// /srv. Where a folder is a symbolic link (a merged /usr makes /bin a link to
// usr/bin), the link is recreated rather than its target bound twice.
import * as fs from 'node:fs/promises';

export type SystemEntry = { kind: 'directory'; path: string } | { kind: 'link'; path: string; target: string };

/** Where programs, their libraries and their configuration live, on the distributions Mino knows. */
export const SYSTEM_FOLDERS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  // Nix and Guix keep every program in their store.
  '/nix',
  '/gnu',
  '/snap',
  // Homebrew on Linux installs under a user of its own, outside any person's home.
  '/home/linuxbrew/.linuxbrew',
];

/** Shown only as the link they are: NixOS puts the system's programs behind this one, into /nix/store. */
const SYSTEM_LINKS: readonly string[] = ['/run/current-system'];

/** The entries that exist here, in the order given: directories to bind read-only, links to recreate. */
export async function systemView(folders: readonly string[] = SYSTEM_FOLDERS, links: readonly string[] = SYSTEM_LINKS): Promise<SystemEntry[]> {
  const [inFolders, inLinks] = await Promise.all([Promise.all(folders.map(entryAt)), Promise.all(links.map(entryAt))]);
  return [...inFolders, ...inLinks.filter((entry) => entry?.kind === 'link')].filter((entry): entry is SystemEntry => entry !== null);
}

async function entryAt(candidate: string): Promise<SystemEntry | null> {
  try {
    const stat = await fs.lstat(candidate);
    if (stat.isSymbolicLink()) return { kind: 'link', path: candidate, target: await fs.readlink(candidate) };
    return stat.isDirectory() ? { kind: 'directory', path: candidate } : null;
  } catch (error) {
    // Absent here, or out of this user's reach and so out of the command's too.
    if (['ENOENT', 'ENOTDIR', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}
