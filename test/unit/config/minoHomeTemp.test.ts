// Temporary files in ~/.mino: named for their writer, so a later Mino can
// tell one a killed writer left from one being written now.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isOrphanedTemp,
  isPrivateTempName,
  privateTempPath,
  removeOrphanedTempFiles,
  UNNAMED_WRITER_TEMP_AGE_MS,
  writePrivateFile,
} from '../../../src/main/core/config/minoHome';
import { makeTempHome, type TempHome } from '../../support/tempHome';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome({ prefix: 'mino-temp' });
});
afterEach(async () => t.cleanup());

const NOW = 1_800_000_000_000;
const gone = () => false;
const running = () => true;

describe('temporary files in ~/.mino', () => {
  it('are named next to their file, for this process', () => {
    const temp = privateTempPath('/h/.mino/config.json');
    expect(path.dirname(temp)).toBe('/h/.mino');
    expect(path.basename(temp)).toMatch(new RegExp(`^\\.config\\.json\\.${process.pid}-[0-9a-f]{12}\\.tmp$`));
    expect(isPrivateTempName(path.basename(temp))).toBe(true);
  });

  it.each([
    ['.config.json.1234-0123456789ab.tmp', true],
    ['.config.json.0123456789ab.tmp', true],
    ['config.json', false],
    ['.config.json.1234-0123456789ab.tmp.bak', false],
    ['.a.txt.mino-0123456789ab.tmp', false],
    ['session-0123.lock', false],
  ])('%s is a temporary name: %s', (name, expected) => {
    expect(isPrivateTempName(name)).toBe(expected);
  });

  it('one is left over when its writer is gone; one without a writer when it is over an hour old', () => {
    const named = '.config.json.1234-0123456789ab.tmp';
    expect(isOrphanedTemp(named, { mtimeMs: NOW, now: NOW, isRunning: gone })).toBe(true);
    expect(isOrphanedTemp(named, { mtimeMs: 0, now: NOW, isRunning: running })).toBe(false);
    const unnamed = '.config.json.0123456789ab.tmp';
    expect(isOrphanedTemp(unnamed, { mtimeMs: NOW - UNNAMED_WRITER_TEMP_AGE_MS - 1, now: NOW })).toBe(true);
    expect(isOrphanedTemp(unnamed, { mtimeMs: NOW - UNNAMED_WRITER_TEMP_AGE_MS, now: NOW })).toBe(false);
    expect(isOrphanedTemp('config.json', { mtimeMs: 0, now: NOW, isRunning: gone })).toBe(false);
  });

  it('the sweep removes only leftover regular files, and writing leaves no temporary file', async () => {
    const dir = path.join(t.home, '.mino');
    await fs.mkdir(dir, { recursive: true });
    await writePrivateFile(path.join(dir, 'config.json'), '{}\n');
    const leftover = '.config.json.4242-0123456789ab.tmp';
    const inProgress = `.secrets.json.${process.pid}-0123456789ab.tmp`;
    const aDirectory = '.recent-projects.json.4242-0123456789ab.tmp';
    await fs.writeFile(path.join(dir, leftover), 'half');
    await fs.writeFile(path.join(dir, inProgress), 'half');
    await fs.mkdir(path.join(dir, aDirectory));
    const removed = await removeOrphanedTempFiles(dir, { isRunning: (pid) => pid === process.pid });
    expect(removed).toEqual([leftover]);
    expect((await fs.readdir(dir)).sort()).toEqual([aDirectory, inProgress, 'config.json'].sort());
    expect(await removeOrphanedTempFiles(path.join(dir, 'missing'))).toEqual([]);
  });
});
