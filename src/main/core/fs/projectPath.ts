// The one place a model-supplied path becomes a project path. Pure: it looks
// at the string only, so validation (and replay of a saved session) never
// depends on the filesystem.
import * as path from 'node:path';

/** A project-relative path in canonical form ("a/b.txt", "." for the root). Only `normalizeProjectPath` makes one. */
export type ProjectPath = string & { readonly __brand: 'ProjectPath' };

export type PathNormalization = { ok: true; path: ProjectPath } | { ok: false; reason: string };

/** The project root, as list_dir names it. */
export const PROJECT_ROOT = '.' as ProjectPath;

// Both separators count, so a Windows-style "a\..\..\x" cannot hide an escape
// on any platform.
const SEPARATORS = /[\\/]+/;
const DRIVE_PREFIX = /^[A-Za-z]:/;

/**
 * Turns a raw, project-relative path into canonical form ("a/b.txt", "." for
 * the root), or says why it is refused: empty, NUL byte, absolute (POSIX,
 * drive letter, UNC), or a ".." that leaves the project.
 */
export function normalizeProjectPath(raw: string): PathNormalization {
  if (raw.length === 0) {
    return refuse('the path is empty; give a path relative to the project directory, or "." for the project root');
  }
  if (raw.includes('\0')) {
    return refuse('the path contains a NUL byte; give a plain path relative to the project directory');
  }
  if (raw.startsWith('/') || raw.startsWith('\\')) {
    return refuse(`${JSON.stringify(raw)} is absolute; give a path relative to the project directory, such as "src/main.go"`);
  }
  if (DRIVE_PREFIX.test(raw)) {
    return refuse(`${JSON.stringify(raw)} names a drive; give a path relative to the project directory, such as "src/main.go"`);
  }
  const parts: string[] = [];
  for (const part of raw.split(SEPARATORS)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) {
        return refuse(`${JSON.stringify(raw)} leaves the project directory; file tools work only inside the project`);
      }
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  return { ok: true, path: (parts.length === 0 ? '.' : parts.join('/')) as ProjectPath };
}

/** The path's parts; none for the root. */
export function projectPathParts(p: ProjectPath): string[] {
  return p === PROJECT_ROOT ? [] : p.split('/');
}

/** Absolute location of a project path under the (real) project directory. */
export function resolveInProject(projectDir: string, p: ProjectPath): string {
  return p === PROJECT_ROOT ? projectDir : path.join(projectDir, ...projectPathParts(p));
}

function refuse(reason: string): PathNormalization {
  return { ok: false, reason };
}
