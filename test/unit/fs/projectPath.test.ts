import { describe, expect, it } from 'vitest';
import { normalizeProjectPath } from '../../../src/main/core/fs/projectPath';

describe('normalizeProjectPath', () => {
  it.each([
    ['greet.go', 'greet.go'],
    ['./greet.go', 'greet.go'],
    ['a/./b', 'a/b'],
    ['a/b/../c', 'a/c'],
    ['a//b/', 'a/b'],
    ['a\\b\\c.txt', 'a/b/c.txt'],
    ['a/..', '.'],
    ['.', '.'],
    ['./', '.'],
    ['src/../src/./main.ts', 'src/main.ts'],
    ['..foo', '..foo'],
    ['a/...', 'a/...'],
    ['héllo wörld.md', 'héllo wörld.md'],
  ])('normalizes %j to %j', (raw, expected) => {
    expect(normalizeProjectPath(raw)).toEqual({ ok: true, path: expected });
  });

  it.each([
    ['', /empty/],
    ['a\0b', /NUL/],
    ['/etc/passwd', /absolute/],
    ['//server/share', /absolute/],
    ['\\\\server\\share\\x', /absolute/],
    ['\\Windows\\win.ini', /absolute/],
    ['C:\\Windows\\win.ini', /drive/],
    ['c:/x', /drive/],
    ['C:relative', /drive/],
    ['..', /leaves the project/],
    ['../x', /leaves the project/],
    ['a/../../x', /leaves the project/],
    ['a\\..\\..\\x', /leaves the project/],
    ['./../project/x', /leaves the project/],
  ])('refuses %j and says why', (raw, reason) => {
    const result = normalizeProjectPath(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
