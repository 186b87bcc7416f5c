import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../support/tempHome';
import { DEFAULT_SETTINGS, loadSettings, saveSettings } from '../../../src/main/core/config/settings';
import { SETTING_FIELDS, SettingsSchema, settingFromInput, settingToInput } from '../../../src/shared/settings';

const loaded = (settings: object, problems: string[] = []) => ({ ok: true, value: { settings, problems } });

let home: string;
let file: string;

let temp: TempHome;

beforeEach(async () => {
  temp = await makeTempHome({ prefix: 'settings' });
  home = temp.home;
  file = path.join(home, '.mino', 'config.json');
});

afterEach(async () => temp.cleanup());

async function writeRaw(text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

describe('settings', () => {
  it('uses the defaults (128000-token context window) when there is no file', async () => {
    expect(await loadSettings(home)).toEqual(loaded(DEFAULT_SETTINGS));
    expect(DEFAULT_SETTINGS.contextWindow).toBe(128_000);
  });

  it('saves valid settings to a 0600 file in a 0700 ~/.mino and reads them back', async () => {
    const settings = {
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen-coder',
      contextWindow: 32_768,
      checkpointCapMb: 200,
      streamIdleTimeout: 300,
      bashSandbox: false,
      sandboxReadable: ['~/.cargo/bin'],
      compactThreshold: 60,
      reasoning: 'off' as const,
      reasoningEffort: 'high' as const,
      theme: 'dark' as const,
    };
    expect(await saveSettings(home, settings)).toEqual(loaded(settings));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await loadSettings(home)).toEqual(loaded(settings));
  });

  it('reads "bashSandbox": false, and refuses a bashSandbox that is not true or false', async () => {
    await writeRaw('{ "bashSandbox": false }');
    expect(await loadSettings(home)).toEqual(loaded({ ...DEFAULT_SETTINGS, bashSandbox: false }));
    await writeRaw('{ "bashSandbox": "off" }');
    const refused = await loadSettings(home);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain('bashSandbox must be true or false.');
  });

  it('keeps keys it does not know and reports each one by name, without refusing the file', async () => {
    await writeRaw(JSON.stringify({ model: 'old', colour: 'blue' }));
    const before = await loadSettings(home);
    expect(before).toEqual(loaded({ ...DEFAULT_SETTINGS, model: 'old' }, [expect.stringContaining('"colour"')]));
    if (before.ok) expect(before.value.problems[0]).toContain(file);
    await saveSettings(home, { ...DEFAULT_SETTINGS, model: 'new' });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ model: 'new', colour: 'blue' });
  });

  it('fills missing fields of a partial file with defaults', async () => {
    await writeRaw(JSON.stringify({ model: 'mine' }));
    expect(await loadSettings(home)).toEqual(loaded({ ...DEFAULT_SETTINGS, model: 'mine' }));
  });

  it('stores only what differs from the defaults, so a later default reaches untouched settings', async () => {
    await saveSettings(home, { ...DEFAULT_SETTINGS, contextWindow: 64_000 });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ contextWindow: 64_000 });
    // Setting a field back to its default removes it from the file.
    await saveSettings(home, { contextWindow: DEFAULT_SETTINGS.contextWindow });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({});
  });

  it('saves a partial change and keeps the other stored fields', async () => {
    await saveSettings(home, { model: 'a', contextWindow: 1000 });
    expect(await saveSettings(home, { model: 'b' })).toEqual(loaded({ ...DEFAULT_SETTINGS, model: 'b', contextWindow: 1000 }));
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ model: 'b', contextWindow: 1000 });
  });

  it('refuses a save that would leave an invalid stored field in place, and changes nothing', async () => {
    const before = JSON.stringify({ contextWindow: 'big' });
    await writeRaw(before);
    expect(await saveSettings(home, { model: 'x' })).toEqual({ ok: false, error: expect.stringContaining('contextWindow: ') });
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it.each([
    ['a bad URL', { baseUrl: 'not a url' }, 'base URL must be an http:// or https:// URL'],
    ['a non-http URL', { baseUrl: 'file:///etc/passwd' }, 'base URL must be an http:// or https:// URL'],
    ['plain http to another machine', { baseUrl: 'http://models.example.com/v1' }, 'so your API key is not sent unencrypted'],
    ['an empty model name', { model: '   ' }, 'The model name cannot be empty'],
    ['a zero context window', { contextWindow: 0 }, 'context window must be a positive number'],
    ['a fractional context window', { contextWindow: 1.5 }, 'context window must be a whole number'],
    ['a text context window', { contextWindow: '128000' }, 'context window must be a number of tokens'],
    ['a compaction threshold over 95', { compactThreshold: 99 }, 'compaction threshold can be at most 95'],
    ['an unknown reasoning setting', { reasoning: 'maybe' }, 'Reasoning must be auto, on or off'],
    ['an unknown reasoning effort', { reasoningEffort: 'extreme' }, 'Reasoning effort must be default, minimal, low, medium or high'],
    ['an unknown theme', { theme: 'sepia' }, 'Theme must be system, light or dark'],
    ['an unknown field', { temperature: 2 }, 'temperature'],
  ])('refuses %s with a clear error and changes nothing', async (_case, change, message) => {
    const before = JSON.stringify({ ...DEFAULT_SETTINGS, model: 'kept' });
    await writeRaw(before);
    const result = await saveSettings(home, { ...DEFAULT_SETTINGS, ...change });
    expect(result).toEqual({ ok: false, error: expect.stringContaining(message) });
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it('takes each default from its field description, and every default passes its own schema', () => {
    for (const [name, field] of Object.entries(SETTING_FIELDS)) {
      expect(DEFAULT_SETTINGS[name as keyof typeof DEFAULT_SETTINGS]).toBe(field.default);
      expect(field.schema.safeParse(field.default).success).toBe(true);
    }
    expect(SettingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });

  it('turns what the form holds into values by kind, leaving bad numbers for the schema to explain', () => {
    const window = SETTING_FIELDS.contextWindow;
    expect(settingFromInput(window, ' 4096 ')).toBe(4096);
    expect(settingFromInput(window, '')).toBeNaN();
    expect(window.schema.safeParse(settingFromInput(window, 'lots')).error?.issues[0]?.message).toContain('number of tokens');
    expect(settingToInput(window, 128_000)).toBe('128000');
    expect(settingFromInput(SETTING_FIELDS.model, ' m ')).toBe(' m ');
  });

  it('reports a file that is not valid JSON with its path and never overwrites it', async () => {
    await writeRaw('{ "model": "half-written"');
    const loaded = await loadSettings(home);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(loaded.error).toContain(file);
      expect(loaded.error).toContain('not valid JSON');
    }
    const saved = await saveSettings(home, DEFAULT_SETTINGS);
    expect(saved).toEqual({ ok: false, error: expect.stringContaining(file) });
    expect(await fs.readFile(file, 'utf8')).toBe('{ "model": "half-written"');
  });

  it('reports a file whose values are invalid, naming the field', async () => {
    await writeRaw(JSON.stringify({ contextWindow: -1 }));
    expect(await loadSettings(home)).toEqual({ ok: false, error: expect.stringMatching(/config\.json has invalid values: contextWindow: /) });
  });

  it('writes only inside the given home directory and leaves no temporary files', async () => {
    await saveSettings(home, DEFAULT_SETTINGS);
    expect(await fs.readdir(home)).toEqual(['.mino']);
    expect((await fs.readdir(path.join(home, '.mino'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
