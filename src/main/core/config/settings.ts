// Settings in ~/.mino/config.json: model service base URL, model name and
// context window. A file a person broke is reported, never rewritten: the
// only write path refuses while the existing file cannot be read back.
import * as fs from 'node:fs/promises';
import { z } from 'zod';
import {
  BaseUrlSchema,
  ContextWindowSchema,
  DEFAULT_BASE_URL,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MODEL,
  ModelNameSchema,
  SettingsSchema,
  type Settings,
} from '../../../shared/ipc';
import { ensureMinoHome, minoPaths, writePrivateFile } from './minoHome';

export const DEFAULT_SETTINGS: Settings = Object.freeze({
  baseUrl: DEFAULT_BASE_URL,
  model: DEFAULT_MODEL,
  contextWindow: DEFAULT_CONTEXT_WINDOW,
});

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

/** Every field optional: a missing one takes its default. Unknown keys are kept for other readers of the file. */
const StoredSettingsSchema = z.looseObject({
  baseUrl: BaseUrlSchema.optional(),
  model: ModelNameSchema.optional(),
  contextWindow: ContextWindowSchema.optional(),
});

function issuesText(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** The file's JSON object, or null when it does not exist. Throws SettingsError when it is not a JSON object. */
async function readConfigObject(file: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SettingsError(`Cannot read the settings file ${file}: ${(error as Error).message}. Check its permissions.`, file);
  }
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

export type SettingsResult = { ok: true; value: Settings } | { ok: false; error: string };

/** Current settings: the file's values over the defaults, or why the file cannot be used. */
export async function loadSettings(homeDir: string): Promise<SettingsResult> {
  try {
    return { ok: true, value: await readSettings(homeDir) };
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Validates and saves complete settings; on any problem nothing changes and the result says why. */
export async function saveSettings(homeDir: string, input: unknown): Promise<SettingsResult> {
  try {
    return { ok: true, value: await writeSettings(homeDir, input) };
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Like loadSettings, but throws SettingsError. */
export async function readSettings(homeDir: string): Promise<Settings> {
  const file = minoPaths(homeDir).config;
  const stored = await readConfigObject(file);
  if (stored === null) return { ...DEFAULT_SETTINGS };
  const parsed = StoredSettingsSchema.safeParse(stored);
  if (!parsed.success) {
    throw new SettingsError(`The settings file ${file} has invalid values: ${issuesText(parsed.error)}. Fix the file or save new settings.`, file);
  }
  return {
    baseUrl: parsed.data.baseUrl ?? DEFAULT_SETTINGS.baseUrl,
    model: parsed.data.model ?? DEFAULT_SETTINGS.model,
    contextWindow: parsed.data.contextWindow ?? DEFAULT_SETTINGS.contextWindow,
  };
}

/**
 * Like saveSettings, but throws SettingsError. Keeps any other keys in the
 * file; writes 0600, atomically.
 */
export async function writeSettings(homeDir: string, input: unknown): Promise<Settings> {
  const file = minoPaths(homeDir).config;
  const parsed = SettingsSchema.safeParse(input);
  if (!parsed.success) {
    throw new SettingsError(`Settings not saved: ${issuesText(parsed.error)}`, file);
  }
  const existing = await readConfigObject(file);
  await ensureMinoHome(homeDir);
  const next = { ...(existing ?? {}), ...parsed.data };
  await writePrivateFile(file, `${JSON.stringify(next, null, 2)}\n`);
  return parsed.data;
}
