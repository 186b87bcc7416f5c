// Where the model service settings come from: the environment first
// (OPENAI_BASE_URL, OPENAI_API_KEY, MINO_MODEL), then ~/.mino/config.json,
// then the key the desktop app stored. Resolved per turn so edits apply.
import { addLogSecrets } from '../log/log';
import { createModelClient } from '../model/client';
import { ModelError, type ModelClient } from '../model/types';

export interface ModelConfigSources {
  /** From ~/.mino/config.json, defaults filled in. */
  settings: { baseUrl: string; model: string; streamIdleTimeout: number };
  /**
   * The environment Mino started with, as environmentSecret.ts keeps it: process.env itself no longer holds
   * OPENAI_API_KEY, which is taken out at start-up so no child inherits it.
   */
  env: NodeJS.ProcessEnv;
  /** A key stored by the desktop app (safeStorage); the CLI has none. */
  storedApiKey?: string | null;
}

export const MISSING_KEY_MESSAGE =
  'No API key is set for the model service. Set OPENAI_API_KEY in the environment, or enter a key in Settings, then send your message again.';

/** The model name requests will carry: MINO_MODEL wins over the settings. */
export function resolvedModelName(settings: { model: string }, env: NodeJS.ProcessEnv): string {
  return env.MINO_MODEL?.trim() || settings.model;
}

export function resolveModelConfig(sources: ModelConfigSources): {
  baseURL: string;
  model: string;
  apiKey: string;
  streamIdleTimeoutMs: number;
  organization?: string;
  project?: string;
} {
  const apiKey = sources.env.OPENAI_API_KEY?.trim() || sources.storedApiKey?.trim();
  if (!apiKey) throw new ModelError('config', MISSING_KEY_MESSAGE);
  addLogSecrets([apiKey]);
  const baseURL = sources.env.OPENAI_BASE_URL?.trim() || sources.settings.baseUrl;
  const model = resolvedModelName(sources.settings, sources.env);
  // Read from the environment as the openai SDK does, for keys that belong to several organizations or projects.
  const organization = sources.env.OPENAI_ORG_ID?.trim();
  const project = sources.env.OPENAI_PROJECT_ID?.trim();
  return {
    baseURL,
    model,
    apiKey,
    streamIdleTimeoutMs: sources.settings.streamIdleTimeout * 1000,
    ...(organization ? { organization } : {}),
    ...(project ? { project } : {}),
  };
}

export function modelClientFor(sources: ModelConfigSources): ModelClient {
  return createModelClient(resolveModelConfig(sources));
}
