// search_files on real temp projects, through validate, inspect and execute
// as the loop runs it, with its real worker thread.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearchFilesTool, searchFilesTool } from '../../../../src/main/core/tools/searchFiles';
import { makeTempProject, runApproved, SENTINEL, type TempProject } from '../../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  await t.cleanup();
});

const search = (raw: Record<string, unknown>) => runApproved(searchFilesTool, raw, t.ctx);

/** The answer's lines, and its last line (the counts) apart. */
async function searchLines(raw: Record<string, unknown>): Promise<{ lines: string[]; counts: string }> {
  const run = await search(raw);
  expect(run.result.status, run.result.output).toBe('completed');
  const lines = run.result.output.split('\n');
  return { lines: lines.slice(0, -1), counts: lines[lines.length - 1] };
}

describe('search_files', () => {
  it('returns path:line:text for a regular expression, in path order, without asking (a restricted read)', async () => {
    await t.write('src/b.ts', 'export function parseB() {}\nconst x = 1;\n');
    await t.write('src/a.ts', 'const y = 2;\n// parse later\nfunction  parseA() {}\n');
    await t.write('README.md', 'Call parseA.\n');
    const run = await search({ pattern: 'function\\s+parse\\w+' });
    expect(searchFilesTool.kind).toBe('restricted_read');
    expect(run.result.status).toBe('completed');
    expect(run.result.output).toBe(
      ['src/a.ts:3:function  parseA() {}', 'src/b.ts:1:export function parseB() {}', '2 matching lines in 2 files; 3 files searched; nothing skipped.'].join('\n'),
    );
    expect(run.confirmation?.fields).toEqual([
      { label: 'Path', value: '.' },
      { label: 'Project directory', value: t.project },
      { label: 'Pattern', value: 'function\\s+parse\\w+' },
    ]);
  });

  it('searches for literal text, ignores case, narrows to a glob or a path, and shows context', async () => {
    await t.write('src/a.ts', 'one\ntwo\ncall(x) + 1\nfour\nfive\n');
    await t.write('src/deep/b.tsx', 'CALL(x)\n');
    await t.write('docs/c.md', 'call(x)\n');
    expect((await searchLines({ pattern: 'call(x)', fixed_strings: true })).lines).toEqual(['docs/c.md:1:call(x)', 'src/a.ts:3:call(x) + 1']);
    expect((await searchLines({ pattern: 'call(x)', fixed_strings: true, case_insensitive: true, glob: '*.{ts,tsx}' })).lines).toEqual([
      'src/a.ts:3:call(x) + 1',
      'src/deep/b.tsx:1:CALL(x)',
    ]);
    expect((await searchLines({ pattern: 'call', case_insensitive: true, path: 'src', glob: 'deep/**' })).lines).toEqual(['src/deep/b.tsx:1:CALL(x)']);
    expect((await searchLines({ pattern: 'call', path: 'src/a.ts', context: 2 })).lines).toEqual([
      'src/a.ts-1-one',
      'src/a.ts-2-two',
      'src/a.ts:3:call(x) + 1',
      'src/a.ts-4-four',
      'src/a.ts-5-five',
    ]);
  });

  it('never opens a protected file or folder: skipped and counted, no line of them in the answer', async () => {
    await t.write('.env', `TOKEN=${SENTINEL}\n`);
    await t.write('config/.env.local', `TOKEN=${SENTINEL}\n`);
    await t.write('certs/server.pem', `${SENTINEL}\n`);
    await t.write('.git/config', `${SENTINEL}\n`);
    await t.write('home/.ssh/id_rsa', `${SENTINEL}\n`);
    await t.write('notes.txt', `not the ${'SENTINEL'} itself\n`);
    const { lines, counts } = await searchLines({ pattern: 'SENTINEL' });
    expect(lines).toEqual(['notes.txt:1:not the SENTINEL itself']);
    expect(counts).toBe('1 matching line in 1 file; 1 file searched; skipped 5 protected entries (never opened).');
  });

  it('skips binary files and files over 1 MiB, and counts them', async () => {
    await t.write('data.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0]), Buffer.from('needle')]));
    await t.write('big.log', `needle\n${'x'.repeat(1024 * 1024)}\n`);
    await t.write('ok.txt', 'needle\n');
    const { lines, counts } = await searchLines({ pattern: 'needle' });
    expect(lines).toEqual(['ok.txt:1:needle']);
    expect(counts).toBe('1 matching line in 1 file; 1 file searched; skipped 1 binary file, 1 file too large (over 1 MiB).');
  });

  it('follows no link, to a file or a folder, inside or outside the project, and counts them', async () => {
    await t.write('real.txt', `${SENTINEL} copy inside\n`);
    await fs.symlink(t.outside, t.file('outside-dir'));
    await fs.symlink(`${t.outside}/secret.txt`, t.file('outside-file.txt'));
    await fs.symlink('real.txt', t.file('inside-link.txt'));
    const { lines, counts } = await searchLines({ pattern: SENTINEL });
    expect(lines).toEqual([`real.txt:1:${SENTINEL} copy inside`]);
    expect(counts).toBe('1 matching line in 1 file; 1 file searched; skipped 3 links (links are not followed).');
    const throughLink = await search({ pattern: SENTINEL, path: 'outside-dir' });
    expect(throughLink.result.status).toBe('invalid_arguments');
    expect(throughLink.result.output).toBe('outside-dir is a symbolic link; the search tools follow no links. Give the folder or file it stands for inside the project.');
  });

  it('skips what .gitignore files ignore (nested ones and .git/info/exclude too), unless include_ignored', async () => {
    await t.write('.gitignore', 'node_modules/\n*.log\n');
    await t.write('node_modules/pkg/index.js', 'needle\n');
    await t.write('app/.gitignore', 'generated/\n!keep.log\n');
    await t.write('app/generated/out.js', 'needle\n');
    await t.write('app/keep.log', 'needle\n');
    await t.write('app/drop.log', 'needle\n');
    await t.write('local-notes.txt', 'needle\n');
    await t.write('.git/info/exclude', 'local-notes.txt\n');
    await t.write('src/a.ts', 'needle\n');
    const { lines, counts } = await searchLines({ pattern: 'needle' });
    expect(lines).toEqual(['app/keep.log:1:needle', 'src/a.ts:1:needle']);
    expect(counts).toBe(
      '2 matching lines in 2 files; 4 files searched; skipped 1 protected entry (never opened), 4 entries ignored by .gitignore ("include_ignored": true includes them).',
    );
    const all = await searchLines({ pattern: 'needle', include_ignored: true });
    expect(all.lines).toEqual([
      'app/drop.log:1:needle',
      'app/generated/out.js:1:needle',
      'app/keep.log:1:needle',
      'local-notes.txt:1:needle',
      'node_modules/pkg/index.js:1:needle',
      'src/a.ts:1:needle',
    ]);
    const ignoredPath = await search({ pattern: 'needle', path: 'node_modules/pkg' });
    expect(ignoredPath.result).toEqual({
      status: 'invalid_arguments',
      output: 'node_modules/pkg is in node_modules, which is ignored by the project\'s .gitignore rules; send "include_ignored": true to search it.',
    });
    expect((await searchLines({ pattern: 'needle', path: 'node_modules', include_ignored: true })).lines).toEqual(['node_modules/pkg/index.js:1:needle']);
  });

  it('stops at max_results and says there are more', async () => {
    await t.write('a.txt', Array.from({ length: 30 }, (_, i) => `hit ${i}`).join('\n'));
    await t.write('b.txt', 'hit b\n');
    const { lines, counts } = await searchLines({ pattern: 'hit', max_results: 5 });
    expect(lines).toEqual(['a.txt:1:hit 0', 'a.txt:2:hit 1', 'a.txt:3:hit 2', 'a.txt:4:hit 3', 'a.txt:5:hit 4']);
    // How many files were searched by then depends on how many workers shared the search.
    expect(counts).toMatch(
      /^5 matching lines in 1 file; \d+ files? searched; nothing skipped\. Stopped at max_results \(5\): there are more matches; narrow the pattern, path or glob, or raise max_results \(at most 500\)\.$/,
    );
    // Exactly max_results matches is not a cut.
    expect((await searchLines({ pattern: 'hit b', max_results: 1 })).counts).toBe('1 matching line in 1 file; 2 files searched; nothing skipped.');
  });

  it('stops when the answer reaches 64 KiB, and says so', async () => {
    await Promise.all(Array.from({ length: 300 }, (_, i) => t.write(`f${String(i).padStart(3, '0')}.txt`, `hit ${'x'.repeat(280)}\n`)));
    const { lines, counts } = await searchLines({ pattern: 'hit', max_results: 500 });
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.length).toBeLessThan(300);
    expect(lines.join('\n').length).toBeLessThanOrEqual(64 * 1024);
    expect(counts).toMatch(
      new RegExp(`^${lines.length} matching lines in ${lines.length} files; \\d+ files searched; nothing skipped\\. Stopped when the answer reached 64 KiB: there are more matches`),
    );
  });

  it('ends a pattern that backtracks without end, and says why', async () => {
    await t.write('a.txt', `${'a'.repeat(50_000)}b\n`);
    const tool = createSearchFilesTool({ watchdogTickMs: 50 });
    const run = await runApproved(tool, { pattern: '(a+)+$' }, t.ctx);
    expect(run.result.status).toBe('failed');
    expect(run.result.output).toMatch(/^The pattern made no progress on one file for too long, so the search was ended; nothing was found\. .*\(a\+\)\+/);
  });

  it('refuses invalid arguments, saying how to send them', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^Invalid search_files arguments \(pattern: .*\)\. Send for example \{"pattern": /],
      [{ pattern: '' }, /the pattern is empty/],
      [{ pattern: 'a(' }, /pattern: the pattern is not a valid JavaScript regular expression \(.*\)\. Fix it, or send "fixed_strings": true/],
      [{ pattern: 'a', context: 6 }, /context: /],
      [{ pattern: 'a', max_results: 501 }, /max_results: /],
      [{ pattern: 'a', max_results: 0 }, /max_results: /],
      [{ pattern: 'a', glob: '../*.ts' }, /glob: "\.\.\/\*\.ts" is matched against paths relative to "path"/],
      [{ pattern: 'a', path: '../outside' }, /path: .* leaves the project directory/],
      [{ pattern: 'a', grep: true }, /unknown field "grep"/],
    ];
    for (const [raw, reason] of cases) {
      const run = await search(raw);
      expect(run.step, JSON.stringify(raw)).toBe('validate');
      expect(run.result.status).toBe('invalid_arguments');
      expect(run.result.output).toMatch(reason);
    }
    expect((await search({ pattern: 'a', path: 'missing' })).result).toEqual({
      status: 'invalid_arguments',
      output: 'missing does not exist; give a folder or file of the project, or leave path out to search it all.',
    });
  });

  it('skips FIFOs without blocking on them', async () => {
    await t.write('a.txt', 'hit\n');
    execFileSync('mkfifo', [t.file('pipe')]);
    expect((await searchLines({ pattern: 'hit' })).counts).toBe('1 matching line in 1 file; 1 file searched; skipped 1 special file (FIFO, socket or device).');
  });
});
