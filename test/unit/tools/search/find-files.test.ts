// find_files on real temp projects, through validate, inspect and execute.
import * as fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFilesTool } from '../../../../src/main/core/tools/findFiles';
import { makeTempProject, runApproved, type TempProject } from '../../fs/tempProject';

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
});
afterEach(async () => {
  await t.cleanup();
});

const find = (raw: Record<string, unknown>) => runApproved(findFilesTool, raw, t.ctx);

async function setTime(rel: string, secondsSinceEpoch: number): Promise<void> {
  await fs.utimes(t.file(rel), secondsSinceEpoch, secondsSinceEpoch);
}

describe('find_files', () => {
  it('lists the files a glob matches, newest first, saying so, without asking', async () => {
    for (const [rel, time] of [['src/old.ts', 1_000], ['src/new.ts', 3_000], ['src/deep/mid.ts', 2_000], ['src/readme.md', 4_000], ['top.ts', 1_500]] as const) {
      await t.write(rel, 'x\n');
      await setTime(rel, time);
    }
    const run = await find({ pattern: '*.ts' });
    expect(findFilesTool.kind).toBe('restricted_read');
    expect(run.result).toEqual({
      status: 'completed',
      output: ['src/new.ts', 'src/deep/mid.ts', 'top.ts', 'src/old.ts', '4 files match "*.ts", newest first (by modification time); nothing skipped.'].join('\n'),
    });
    expect(run.confirmation?.fields).toEqual([
      { label: 'Path', value: '.' },
      { label: 'Project directory', value: t.project },
      { label: 'Pattern', value: '*.ts' },
    ]);
  });

  it('sorts by name on request, matches globs with "/" against paths relative to path, and caps at max_results', async () => {
    for (const rel of ['src/b/index.tsx', 'src/a/index.ts', 'src/a/other.ts', 'lib/index.ts']) await t.write(rel, 'x\n');
    expect((await find({ pattern: 'src/**/index.{ts,tsx}', sort: 'name' })).result.output).toBe(
      ['src/a/index.ts', 'src/b/index.tsx', '2 files match "src/**/index.{ts,tsx}", by name; nothing skipped.'].join('\n'),
    );
    expect((await find({ pattern: '*/index.ts', path: 'src', sort: 'name' })).result.output.split('\n')[0]).toBe('src/a/index.ts');
    expect((await find({ pattern: '**', sort: 'name', max_results: 2 })).result.output).toBe(
      [
        'lib/index.ts',
        'src/a/index.ts',
        '4 files match "**", by name; showing the first 2 (max_results): narrow the pattern or path, or raise max_results (at most 500); nothing skipped.',
      ].join('\n'),
    );
  });

  it('leaves out protected entries, links and ignored files, counting them, unless include_ignored', async () => {
    await t.write('.gitignore', 'dist/\n');
    await t.write('dist/app.js', 'x\n');
    await t.write('.env', 'x\n');
    await t.write('keys/server.key', 'x\n');
    await t.write('.git/HEAD', 'x\n');
    await t.write('src/app.js', 'x\n');
    await fs.symlink(t.outside, t.file('elsewhere'));
    expect((await find({ pattern: '**', sort: 'name' })).result.output).toBe(
      [
        '.gitignore',
        'src/app.js',
        '2 files match "**", by name; skipped 3 protected entries (never opened), 1 entry ignored by .gitignore ("include_ignored": true includes them), 1 link (links are not followed).',
      ].join('\n'),
    );
    expect((await find({ pattern: '*.js', sort: 'name', include_ignored: true })).result.output.split('\n').slice(0, -1)).toEqual(['dist/app.js', 'src/app.js']);
  });

  it('refuses invalid arguments, saying how to send them', async () => {
    for (const raw of [{}, { pattern: '' }, { pattern: '/etc/*' }, { pattern: '*.ts', sort: 'size' }, { pattern: '*.ts', max_results: 1000 }]) {
      const run = await find(raw);
      expect(run.step, JSON.stringify(raw)).toBe('validate');
      expect(run.result.status).toBe('invalid_arguments');
      expect(run.result.output).toMatch(/^Invalid find_files arguments \(.+\)\. Send for example \{"pattern": "\*\*\/\*\.test\.ts"\}/);
    }
  });
});
