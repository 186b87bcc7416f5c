import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PROTECTED_RULES,
  directoryNameRuleFor,
  fileNameRuleFor,
  protectedDirectoryRuleFor,
  protectedRuleFor,
} from '../../../src/main/core/policy/protectedPaths';
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

// Names that open a protected file on NTFS, FAT or HFS+ (Git refuses each of these for `.git`).
describe('protected names under every spelling a file system may open them by', () => {
  it.each([
    ['.git/', '.git./config'],
    ['.git/', '.git /config'],
    ['.git/', '.git. . ./config'],
    ['.git/', 'GIT~1/config'],
    ['.git/', 'sub/git~1/HEAD'],
    ['.git/', '.git::$INDEX_ALLOCATION/config'],
    ['.git/', '.git:stream/config'],
    ['.git/', '.g\u200Cit/config'],
    ['.git/', '.git\u200E/config'],
    ['.git/', '\uFEFF.git/config'],
    ['.git/', '.g\u202Eit/hooks/pre-commit'],
    ['.env', '.env::$DATA'],
    ['.env', '.env '],
    ['.env', '.env.'],
    ['.env', 'ENV~1'],
    ['.env', '.e\u200Dnv'],
    ['.env.*', 'ENV~1.LOC'],
    ['.env.*', 'config/envpro~2.loc'],
    ['*.key', 'server.key.'],
    ['*.key', 'server.key  '],
    ['*.key', 'server.key:secret'],
    ['*.key', 'PRIVAT~1.KEY'],
    ['*.pem', 'server.pem::$DATA'],
    ['id_ed25519*', 'ID_ED2~1'],
    ['id_ecdsa*', 'id_ecd~1.pub'],
    ['.ssh/', 'SSH~1/id_anything'],
    ['.gnupg/', 'GNUPG~1/x'],
    ['.gnupg/', 'gnupg~10/x'],
    ['.pypirc', 'PYPIRC~1'],
    ['.npmrc', '.npmrc . '],
  ])('%s protects %j', (rule, path) => {
    expect(protectedRuleFor(p(path), 'file')).toBe(rule);
  });

  // Once ~1..~4 are taken, Windows builds "<2 letters><4 hex>~N" from a hash of the long name (Git's `gi7eba~1`).
  it.each([
    ['.git/', 'gi7eba~1/config'],
    ['.git/', 'GI250A~5/config'],
    ['.env', 'en1f3c~1'],
    ['.env.*', 'en1f3c~9.loc'],
  ])('%s protects the hashed short name %j', (rule, path) => {
    expect(protectedRuleFor(p(path), 'file')).toBe(rule);
  });

  it.each([
    'git~1.txt',
    'gitlab~1/config',
    'en~1',
    'notes~1.md',
    'key~1.txt',
    'server.keys',
    'server.key.bak',
    '.envrc ',
    '.gitignore.',
    'g~it/config',
  ])('near miss %j is not protected', (path) => {
    expect(protectedRuleFor(p(path), 'file')).toBeNull();
  });

  it('refuses a project folder inside a protected directory under another spelling', () => {
    expect(protectedDirectoryRuleFor('/home/me/.git./worktree')).toBe('.git/');
    expect(protectedDirectoryRuleFor('C:\\Users\\me\\GIT~1\\x')).toBe('.git/');
    expect(protectedDirectoryRuleFor('/home/me/.s\u200Csh/project')).toBe('.ssh/');
    expect(protectedDirectoryRuleFor('/home/me/projects/app')).toBeNull();
  });

  it('judges one name at a time for callers that walk a tree', () => {
    expect(fileNameRuleFor('.env ')).toBe('.env');
    expect(fileNameRuleFor('README.md')).toBeNull();
    expect(directoryNameRuleFor('GIT~1')).toBe('.git/');
    expect(directoryNameRuleFor('src')).toBeNull();
  });

  // A protected name, then any of the changes a file system ignores, in any combination.
  const protectedName = fc.constantFrom(
    ['.env', '.env'], ['.env.*', '.env.production'], ['*.pem', 'tls.pem'], ['*.key', 'server.key'],
    ['*.p12', 'cert.p12'], ['id_rsa*', 'id_rsa.pub'], ['id_ecdsa*', 'id_ecdsa'], ['id_ed25519*', 'id_ed25519'],
    ['.netrc', '.netrc'], ['.npmrc', '.npmrc'], ['.pypirc', '.pypirc'],
  );
  const protectedDirectory = fc.constantFrom(['.git/', '.git'], ['.ssh/', '.ssh'], ['.aws/', '.aws'], ['.gnupg/', '.gnupg']);
  const ignorable = fc.constantFrom('\u200C', '\u200D', '\u200E', '\u200F', '\u202A', '\u202E', '\u206A', '\u206F', '\uFEFF');
  const disguise = (name: string) =>
    fc
      .record({
        upper: fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }),
        inserts: fc.array(fc.tuple(fc.nat({ max: name.length }), ignorable), { maxLength: 4 }),
        trailing: fc.stringMatching(/^[. ]{0,4}$/),
        stream: fc.option(fc.constantFrom('::$DATA', '::$INDEX_ALLOCATION', ':x', ':$DATA:evil'), { nil: '' }),
      })
      .map(({ upper, inserts, trailing, stream }) => {
        const chars = [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c));
        for (const [at, mark] of inserts) chars.splice(at, 0, mark);
        return chars.join('') + trailing + stream;
      });

  it('refuses every name that folds to a protected file name', () => {
    fc.assert(
      fc.property(
        protectedName.chain(([rule, name]) => fc.tuple(fc.constant(rule), disguise(name))),
        fc.constantFrom('', 'src/', 'a/b/'),
        (pair, folder) => {
          const [rule, name] = pair;
          expect(protectedRuleFor(p(`${folder}${name}`), 'file')).toBe(rule);
        },
      ),
    );
  });

  it('refuses every path through a directory name that folds to a protected directory', () => {
    fc.assert(
      fc.property(
        protectedDirectory.chain(([rule, name]) => fc.tuple(fc.constant(rule), disguise(name))),
        ([rule, name]) => {
          expect(protectedRuleFor(p(`${name}/config`), 'file')).toBe(rule);
          expect(protectedRuleFor(p(`deep/${name}`), 'directory')).toBe(rule);
        },
      ),
    );
  });

  it('refuses every 8.3 short name a protected name can be given', () => {
    // Windows' short name: the base without dots and spaces, cut so "~N" fits in 8, and the first 3 of the extension.
    const shortName = (longName: string, n: number) => {
      const lastDot = longName.lastIndexOf('.');
      const hasExtension = lastDot > 0;
      const base = (hasExtension ? longName.slice(0, lastDot) : longName).replace(/[. ]/g, '');
      const tail = `~${n}`;
      const extension = hasExtension ? `.${longName.slice(lastDot + 1, lastDot + 4)}` : '';
      return `${base.slice(0, Math.min(6, 8 - tail.length))}${tail}${extension}`.toUpperCase();
    };
    fc.assert(
      fc.property(
        fc.oneof(protectedName, protectedDirectory),
        fc.integer({ min: 1, max: 99999 }),
        ([rule, name], n) => {
          // A short name can stand for two rules at once (ID_E~100 is id_ecdsa or id_ed25519): it is refused either way.
          const short = shortName(name, n);
          const path = rule.endsWith('/') ? `${short}/config` : short;
          expect(protectedRuleFor(p(path), 'file')).not.toBeNull();
        },
      ),
    );
  });
});
