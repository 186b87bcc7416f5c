// Settings in ~/.mino/config.json, stored as a partial object over the
// defaults of src/shared/settings.ts (the one owner of what a setting is). A
// file a person broke is reported, never rewritten: a save refuses while the
// existing file cannot be read back, and keys Mino does not know are kept.
import { isDeepStrictEqual } from 'node:util';
import {
  DEFAULT_SETTINGS,
  SETTING_FIELDS,
  SETTING_NAMES,
  SettingsPatchSchema,
  StoredSettingsSchema,
  type SettingName,
  type Settings,
  type SettingsPatch,
} from '../../../shared/settings';
import { issuesText } from '../../../shared/zodIssues';
import { ensureMinoHome, minoPaths, writePrivateFile } from './minoHome';
import { MiB, PrivateFileError, readPrivateText } from './readPrivateFile';
import { parseServiceSettings, SERVICE_KEYS, type ServiceSettings } from './services';

/** Far more than any settings file needs; a larger one is not what Mino wrote. */
const MAX_CONFIG_BYTES = MiB;

export { DEFAULT_SETTINGS };

/** A settings problem a person can fix; the message names the file and what to do. */
export class SettingsError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** Settings as every reader uses them, with what in the file did not stop Mino but needs a look. */
export interface LoadedSettings {
  settings: Settings;
  problems: string[];
}

/** The settings with the model services of the same file (services.ts): `"services"` and `"service"`. */
export interface SettingsWithServices extends LoadedSettings {
  services: ServiceSettings;
}

export type SettingsResult = { ok: true; value: LoadedSettings } | { ok: false; error: string };

/** The file's JSON object, or null when it does not exist. Throws SettingsError when it is not a JSON object. */
async function readConfigObject(file: string): Promise<Record<string, unknown> | null> {
  let text: string | null;
  try {
    text = await readPrivateText(file, MAX_CONFIG_BYTES);
  } catch (error) {
    if (error instanceof PrivateFileError) throw new SettingsError(error.message, file);
    throw error;
  }
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(
      `The settings file ${file} is not valid JSON (${(error as Error).message}). Mino left it unchanged: fix it or remove it to use the defaults.`,
      file,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SettingsError(`The settings file ${file} must contain a JSON object. Mino left it unchanged: fix it or remove it to use the defaults.`, file);
  }
  return parsed as Record<string, unknown>;
}

/** The stored object over the defaults; an invalid value stops here (guessing could send the key elsewhere). */
function mergeOverDefaults(file: string, stored: Record<string, unknown>): SettingsWithServices {
  const parsed = StoredSettingsSchema.safeParse(stored);
  const services = parseServiceSettings(stored);
  if (!parsed.success || !services.ok) {
    const problems = [...(parsed.success ? [] : [issuesText(parsed.error)]), ...(services.ok ? [] : services.problems)];
    throw new SettingsError(`The settings file ${file} has invalid values: ${problems.join('; ')}. Fix the file or save new settings.`, file);
  }
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const name of SETTING_NAMES) {
    if (parsed.data[name] !== undefined) settings[name] = parsed.data[name];
  }
  const known = (key: string) => Object.hasOwn(SETTING_FIELDS, key) || (SERVICE_KEYS as readonly string[]).includes(key);
  const unknown = Object.keys(stored).filter((key) => !known(key));
  const problems = unknown.map(
    (key) =>
      `The settings file ${file} has a field Mino does not know, "${key}"; it is ignored and kept. If it is a misspelt setting, rename it to one of: ${[...SETTING_NAMES, ...SERVICE_KEYS].join(', ')}.`,
  );
  return { settings: settings as Settings, services: services.value, problems };
}

/** Current settings: the file's values over the defaults, or why the file cannot be used. */
export async function loadSettings(homeDir: string): Promise<SettingsResult> {
  try {
    return { ok: true, value: await readSettings(homeDir) };
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Validates and saves some settings; on any problem nothing changes and the result says why. */
export async function saveSettings(homeDir: string, patch: unknown): Promise<SettingsResult> {
  try {
    return { ok: true, value: await writeSettings(homeDir, patch) };
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * The settings the file sets (the file holds only what differs from the
 * defaults), e.g. for the CLI banner's "(default)". Empty when the file is
 * missing or unreadable: loading reports that.
 */
export async function configuredSettings(homeDir: string): Promise<ReadonlySet<SettingName>> {
  const stored = await readConfigObject(minoPaths(homeDir).config).catch(() => null);
  return new Set(SETTING_NAMES.filter((name) => stored?.[name] !== undefined));
}

/** Like loadSettings, but throws SettingsError. */
export async function readSettings(homeDir: string): Promise<LoadedSettings> {
  const { settings, problems } = await readSettingsWithServices(homeDir);
  return { settings, problems };
}

/** The settings and the model services, read from the file once; throws SettingsError. */
export async function readSettingsWithServices(homeDir: string): Promise<SettingsWithServices> {
  const file = minoPaths(homeDir).config;
  const stored = await readConfigObject(file);
  return mergeOverDefaults(file, stored ?? {});
}

/** Like readSettingsWithServices, but a file that cannot be used is a result, as for loadSettings. */
export async function loadSettingsWithServices(homeDir: string): Promise<{ ok: true; value: SettingsWithServices } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await readSettingsWithServices(homeDir) };
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * Like saveSettings, but throws SettingsError. Sets the given fields, keeps
 * every other key of the file, and drops a field set back to its default, so
 * the file holds only what differs. Writes 0600, atomically.
 */
export async function writeSettings(homeDir: string, patch: unknown): Promise<LoadedSettings> {
  const file = minoPaths(homeDir).config;
  const parsed = SettingsPatchSchema.safeParse(patch);
  if (!parsed.success) {
    throw new SettingsError(`Settings not saved: ${issuesText(parsed.error)}`, file);
  }
  const next: Record<string, unknown> = { ...((await readConfigObject(file)) ?? {}) };
  for (const [name, value] of Object.entries(parsed.data) as Array<[keyof SettingsPatch, unknown]>) {
    if (value === undefined) continue;
    // Deep: a list setting equal to its default is not stored, so a later default reaches it.
    if (isDeepStrictEqual(value, DEFAULT_SETTINGS[name])) delete next[name];
    else next[name] = value;
  }
  // Checked before writing: a field of the file this save did not set may still be invalid.
  const { settings, problems } = mergeOverDefaults(file, next);
  await ensureMinoHome(homeDir);
  await writePrivateFile(file, `${JSON.stringify(next, null, 2)}\n`);
  return { settings, problems };
}
