// The home folders a sandboxed command may read: everything else in the
// person's home is absent from the sandbox's view. The defaults are where
// version managers and language toolchains keep their programs, libraries and
// package caches, so `node`, `cargo build`, `go test` or `pytest` find what
// they were installed with; none of them holds a credential (cargo's, maven's
// and gradle's own credential files sit beside these folders, not in them).
// The person extends or shrinks the list in Settings (`sandboxReadable` in
// ~/.mino/config.json); nothing the model or a project says can change it.

/** Home-relative, in the `~/` form the Settings form shows. */
export const DEFAULT_SANDBOX_READABLE: readonly string[] = [
  // Programs installed for the person alone.
  '~/bin',
  '~/.local/bin',
  '~/.local/lib',
  '~/.local/share/mise',
  '~/.local/share/pnpm',
  // Version managers.
  '~/.nvm',
  '~/.fnm',
  '~/.volta',
  '~/.asdf',
  '~/.pyenv',
  '~/.rbenv',
  '~/.sdkman',
  '~/.ghcup',
  '~/.elan',
  '~/.bun',
  '~/.deno',
  // Language toolchains and their package caches.
  '~/.rustup',
  '~/.cargo/bin',
  '~/.cargo/registry',
  '~/.cargo/git',
  '~/go/bin',
  '~/go/pkg/mod',
  '~/.npm/_cacache',
  '~/.cache/pip',
  '~/.cache/go-build',
  '~/.cache/yarn',
  '~/.m2/repository',
  '~/.gradle/caches',
  '~/.gradle/wrapper',
  '~/.nuget/packages',
  '~/.dotnet',
];

/** Why an entry of the list cannot be used, or null when it can. */
export function sandboxReadableProblem(entry: string): string | null {
  const trimmed = entry.trim();
  if (trimmed === '') return 'an entry is empty: remove it, or write a folder such as ~/.cargo/bin';
  if (!(trimmed.startsWith('~/') || trimmed.startsWith('/'))) {
    return `"${entry}" is neither a path in your home (~/...) nor an absolute path: write it as ~/.cargo/bin or /home/you/.cargo/bin`;
  }
  if (trimmed.split('/').some((part) => part === '..')) return `"${entry}" contains "..": write the folder's own path`;
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return `"${entry}" contains a control character`;
  return null;
}

/**
 * The absolute path an entry names, `~/` resolved against `homeDir` (no
 * trailing slash); null for an entry with a problem (see sandboxReadableProblem).
 */
export function resolveSandboxReadable(entry: string, homeDir: string): string | null {
  if (sandboxReadableProblem(entry) !== null) return null;
  const trimmed = entry.trim().replace(/\/+$/, '');
  const absolute = trimmed.startsWith('~/') ? `${homeDir.replace(/\/+$/, '')}/${trimmed.slice(2)}` : trimmed;
  return absolute.replace(/\/{2,}/g, '/') || '/';
}

/**
 * Every absolute path a list names: each `~/` entry once per home (the one
 * Mino uses and the account's own, when they differ), an absolute entry once;
 * entries with a problem are left out (Settings shows them).
 */
export function sandboxReadablePaths(entries: readonly string[], homeDirs: readonly string[]): string[] {
  const paths = entries.flatMap((entry) => homeDirs.map((home) => resolveSandboxReadable(entry, home)));
  return [...new Set(paths.filter((p): p is string => p !== null))];
}
