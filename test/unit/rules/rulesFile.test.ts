import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { activeRulesFor } from '../../../src/main/core/rules/activeRules';
import { changeRulesFile, listedRules, readRulesFile, RulesFileError, rulesFilePath, withoutRule, withRule } from '../../../src/main/core/rules/rulesFile';
import { makeTempHome, type TempHome } from '../../support/tempHome';

describe('~/.mino/rules.json', () => {
  let temp: TempHome | undefined;
  afterEach(async () => {
    await temp?.cleanup();
    temp = undefined;
  });

  it('keeps global and per-project rules, private, with ids that are never reused', async () => {
    temp = await makeTempHome({ prefix: 'rules' });
    const { home, project } = temp;
    const first = await changeRulesFile(home, (file) => withRule(file, { project }, 'allow bash echo', '2026-01-01T00:00:00.000Z'));
    const second = await changeRulesFile(home, (file) => withRule(file, { global: true }, 'deny bash rm', '2026-01-01T00:00:01.000Z'));
    expect([first.id, second.id]).toEqual(['r1', 'r2']);
    expect((await fs.stat(rulesFilePath(home))).mode & 0o777).toBe(0o600);

    expect((await activeRulesFor(home, project)).rules.map((rule) => rule.text)).toEqual(['deny bash rm', 'allow bash echo']);
    expect((await activeRulesFor(home, path.join(project, 'other'))).rules.map((rule) => rule.text)).toEqual(['deny bash rm']);

    const removed = await changeRulesFile(home, (file) => withoutRule(file, 'r1'));
    expect(removed).toMatchObject({ id: 'r1', text: 'allow bash echo', scope: { project } });
    const third = await changeRulesFile(home, (file) => withRule(file, { project }, 'allow bash ls', '2026-01-01T00:00:02.000Z'));
    expect(third.id).toBe('r3');
    expect(listedRules(await readRulesFile(home)).map((rule) => rule.id)).toEqual(['r2', 'r3']);
  });

  it('reads a rule added by another process at the next read', async () => {
    temp = await makeTempHome({ prefix: 'rules' });
    const { home, project } = temp;
    expect((await activeRulesFor(home, project)).rules).toEqual([]);
    await changeRulesFile(home, (file) => withRule(file, { project }, 'deny bash rm', '2026-01-01T00:00:00.000Z'));
    expect((await activeRulesFor(home, project)).rules.map((rule) => rule.id)).toEqual(['r1']);
  });

  it('reports a damaged file, and never overwrites it', async () => {
    temp = await makeTempHome({ prefix: 'rules' });
    const { home, project } = temp;
    await fs.mkdir(path.join(home, '.mino'), { recursive: true });
    const damaged = '{ "version": 1, "next": 2, "global": [ {"id": "r1", "text": "deny bash rm", ';
    await fs.writeFile(rulesFilePath(home), damaged, { mode: 0o600 });

    await expect(readRulesFile(home)).rejects.toThrow(RulesFileError);
    await expect(readRulesFile(home)).rejects.toThrow(/is not valid JSON .*Fix or remove the file/);
    await expect(activeRulesFor(home, project)).rejects.toThrow(RulesFileError);
    await expect(changeRulesFile(home, (file) => withRule(file, { project }, 'allow bash echo', 'now'))).rejects.toThrow(RulesFileError);
    expect(await fs.readFile(rulesFilePath(home), 'utf8')).toBe(damaged);

    await fs.writeFile(rulesFilePath(home), JSON.stringify({ version: 1, next: 1, global: [{ id: 'x', text: 'deny bash rm', added: '' }], projects: {} }));
    await expect(readRulesFile(home)).rejects.toThrow(/"global.0.id": must be "r" and a number/);
  });
});
