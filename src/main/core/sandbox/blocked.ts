// What a sandboxed command that failed is told when its output shows the
// sandbox in the way: what was blocked, and the one sanctioned way forward
// (ask the person to run it outside), never a way around it.

/** Error texts by what the sandbox refused; matched case-insensitively in a failed command's output. */
const SIGNS: ReadonlyArray<readonly [pattern: RegExp, blocked: string]> = [
  [/read-only file system/i, 'a write outside the project or into .git/ (the system and the allowed home folders are read-only; /tmp and the home are thrown away)'],
  [/network is unreachable|could not resolve host|temporary failure in name resolution|name or service not known|connection refused|couldn't connect to server|failed to connect/i, 'network access (the sandbox has no network, not even this machine\'s own services)'],
  [/operation not permitted/i, 'an operation the sandbox does not allow'],
];

/** The note appended to a failed sandboxed command's result, or null when nothing points at the sandbox. */
export function sandboxBlockedNote(output: string): string | null {
  const blocked = SIGNS.filter(([pattern]) => pattern.test(output)).map(([, what]) => what);
  if (blocked.length === 0) return null;
  return (
    `[Sandbox: this command ran in Mino's sandbox, which likely blocked ${blocked.join(' and ')}. ` +
    'In the sandbox the project is writable except .git/, the system\'s programs are read-only, the home folder shows only the toolchain folders ' +
    'the person allowed (read-only; the rest of it is absent), secret files read as empty, there is no network and Unix sockets are refused. ' +
    'If the task truly needs this, call bash again with the same command and "sandbox": false; the person will be asked to approve running it outside the sandbox with their full rights. ' +
    'Do not try to work around the sandbox.]'
  );
}
