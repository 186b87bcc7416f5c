// The `default` service's API key (the single key of older versions):
// OPENAI_API_KEY wins; otherwise the stored one. The renderer learns only
// whether a key exists and where it comes from, never the key. `env` is the
// environment Mino started with (the service's port): at start-up the key is
// taken out of process.env (core/config/environmentSecret.ts), so only that
// copy still holds it. The other services' keys are in services.ts.
import { DEFAULT_SERVICE_NAME } from '../../../shared/modelServices';
import type { ApiKeyStatus } from '../../../shared/ipc';
import type { SecretStore } from '../ports';

export async function apiKeyStatus(secrets: SecretStore, env: NodeJS.ProcessEnv): Promise<ApiKeyStatus> {
  if (env.OPENAI_API_KEY?.trim()) return { set: true, source: 'environment' };
  const stored = await secrets.getKey(DEFAULT_SERVICE_NAME);
  return stored ? { set: true, source: 'stored' } : { set: false, source: null };
}

export async function setApiKey(secrets: SecretStore, env: NodeJS.ProcessEnv, apiKey: string): Promise<ApiKeyStatus> {
  await secrets.setKey(DEFAULT_SERVICE_NAME, apiKey);
  return apiKeyStatus(secrets, env);
}

/** The key the model client should use, for main-side callers only. */
export async function resolveApiKey(secrets: SecretStore, env: NodeJS.ProcessEnv): Promise<string | null> {
  return env.OPENAI_API_KEY?.trim() || (await secrets.getKey(DEFAULT_SERVICE_NAME));
}
