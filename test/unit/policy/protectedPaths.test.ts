import { describe, expect, it } from 'vitest';
import { PROTECTED_RULES, protectedRuleFor } from '../../../src/main/core/policy/protectedPaths';
import type { ProjectPath } from '../../../src/main/core/tools/types';

const p = (path: string) => path as ProjectPath;

describe('protected path rules', () => {
  it('has the fifteen built-in rules', () => {
    expect(PROTECTED_RULES).toEqual([
      '.env', '.env.*', '*.pem', '*.key', '*.p12', 'id_rsa*', 'id_ecdsa*', 'id_ed25519*', '.netrc', '.npmrc', '.pypirc',
      '.git/', '.ssh/', '.aws/', '.gnupg/',
    ]);
  });

  // Each file-name rule, at the root, in a subdirectory, and with its case changed.
  it.each([
    ['.env', '.env'],
    ['.env.*', '.env.local'],
    ['*.pem', 'server.pem'],
    ['*.key', 'tls.key'],
    ['*.p12', 'cert.p12'],
    ['id_rsa*', 'id_rsa'],
    ['id_rsa*', 'id_rsa.pub'],
    ['id_ecdsa*', 'id_ecdsa'],
    ['id_ed25519*', 'id_ed25519_work'],
    ['.netrc', '.netrc'],
    ['.npmrc', '.npmrc'],
    ['.pypirc', '.pypirc'],
  ])('file-name rule %s matches %s as the last segment, in any folder and any case', (rule, name) => {
    expect(protectedRuleFor(p(name), 'file')).toBe(rule);
    expect(protectedRuleFor(p(`config/deep/${name}`), 'file')).toBe(rule);
    expect(protectedRuleFor(p(name.toUpperCase()), 'file')).toBe(rule);
    expect(protectedRuleFor(p(`Config/${name.replace(/[a-z]/, (c) => c.toUpperCase())}`), 'file')).toBe(rule);
  });

  it.each([
    ['.env', '.ENV'],
    ['.env.*', 'config/.env.local'],
    ['.env.*', 'config/.Env.Production'],
    ['*.pem', 'KEY.PEM'],
    ['*.key', 'certs/Private.Key'],
  ])('%s protects %s', (rule, path) => {
    expect(protectedRuleFor(p(path), 'file')).toBe(rule);
  });

  it.each([
    ['.git/', '.git/config'],
    ['.git/', '.Git/config'],
    ['.git/', '.git/hooks/pre-commit'],
    ['.git/', 'vendor/lib/.GIT/HEAD'],
    ['.ssh/', '.ssh/config'],
    ['.ssh/', 'home/.SSH/known_hosts'],
    ['.aws/', '.aws/credentials'],
    ['.aws/', '.Aws/config'],
    ['.gnupg/', '.gnupg/pubring.kbx'],
    ['.gnupg/', 'x/.GnuPG/trustdb.gpg'],
  ])('directory rule %s protects %s, a file inside it', (rule, path) => {
    expect(protectedRuleFor(p(path), 'file')).toBe(rule);
  });

  it.each([
    ['.git/', '.git'],
    ['.git/', '.GIT'],
    ['.git/', 'sub/.git'],
    ['.ssh/', '.ssh'],
    ['.aws/', 'a/.AWS'],
    ['.gnupg/', '.gnupg'],
  ])('directory rule %s protects %s when the target is that directory', (rule, path) => {
    expect(protectedRuleFor(p(path), 'directory')).toBe(rule);
  });

  it('treats a target of unknown type as a possible directory', () => {
    expect(protectedRuleFor(p('.git'))).toBe('.git/');
  });

  it.each([
    'docs/env.md',
    'environment.ts',
    'src/env.ts',
    '.envrc',
    'my.env',
    'my.git/x',
    'a.git/config',
    '.github/workflows/ci.yml',
    '.gitignore',
    'ssh/config',
    'aws.ts',
    'keys/readme.md',
    'keyboard.ts',
    'pem.txt',
    'notes.md',
    '.',
  ])('near miss %s is not protected', (path) => {
    expect(protectedRuleFor(p(path), 'file')).toBeNull();
    expect(protectedRuleFor(p(path), 'directory')).toBeNull();
  });

  it('does not protect a plain file named .git through a directory rule', () => {
    expect(protectedRuleFor(p('.git'), 'file')).toBeNull();
    expect(protectedRuleFor(p('sub/.git'), 'file')).toBeNull();
  });

  it('folds case the way a case-insensitive file system does, beyond ASCII', () => {
    // U+212A KELVIN SIGN folds to "k", U+017F LATIN SMALL LETTER LONG S to "s".
    expect(protectedRuleFor(p('tls.\u212Aey'), 'file')).toBe('*.key');
    expect(protectedRuleFor(p('.\u017Fsh/config'), 'file')).toBe('.ssh/');
  });
});
