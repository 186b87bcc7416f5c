// The wire protocols Mino speaks to a model service. Every service in the
// person's configuration names one; the model client turns Mino's history
// into that protocol's requests and its streams back into Mino's items.
import { z } from 'zod';
import { BaseUrlSchema, ContextWindowSchema, ModelNameSchema } from './settings';

/**
 * `responses`: the OpenAI Responses API. `chat`: OpenAI Chat Completions
 * (what most OpenAI-compatible servers and gateways speak). `anthropic`: the
 * Anthropic Messages API. All three are used statelessly: the whole history
 * goes with every request and nothing is stored by the service.
 */
export const WIRE_PROTOCOLS = ['responses', 'chat', 'anthropic'] as const;
export type WireProtocol = (typeof WIRE_PROTOCOLS)[number];

export const WireProtocolSchema = z.enum(WIRE_PROTOCOLS, {
  error: `The protocol must be one of ${WIRE_PROTOCOLS.join(', ')}.`,
});

/** A service's name: what `"service"` in ~/.mino/config.json and `mino exec --service` take. */
export const SERVICE_NAME_RULE = 'a service name is 1 to 40 characters: lowercase letters, digits, ".", "_" or "-", starting with a letter or digit';

export const ServiceNameSchema = z
  .string({ error: `The service name must be text: ${SERVICE_NAME_RULE}.` })
  .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/, `The service name is not valid: ${SERVICE_NAME_RULE}, e.g. "ollama" or "openrouter".`);

/** The name of the service made from the single-service settings (baseUrl, model) and the OPENAI_* variables. */
export const DEFAULT_SERVICE_NAME = 'default';

export const ApiKeyEnvSchema = z
  .string({ error: 'apiKeyEnv must be the name of an environment variable, e.g. "ANTHROPIC_API_KEY".' })
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'apiKeyEnv must be the name of an environment variable (letters, digits and "_"), e.g. "ANTHROPIC_API_KEY", not the key itself.');

/**
 * One entry of `"services"` in ~/.mino/config.json. The key is never here:
 * it comes from the variable `apiKeyEnv` names, or the one the desktop
 * stored for the service; a service on this machine may need none.
 */
export const ServiceConfigSchema = z.strictObject({
  name: ServiceNameSchema,
  protocol: WireProtocolSchema,
  baseUrl: BaseUrlSchema,
  /** The model asked for unless the session chose another. */
  model: ModelNameSchema,
  apiKeyEnv: ApiKeyEnvSchema.optional(),
  /** Used for this service's models instead of the contextWindow setting. */
  contextWindow: ContextWindowSchema.optional(),
  /** false: this service's models take no image input, so a message with images is refused before it is sent. */
  images: z.boolean({ error: 'images must be true or false: false when the model reads no images.' }).optional(),
});
export type ServiceConfig = z.infer<typeof ServiceConfigSchema>;

/** Whether `baseUrl` is on this machine (localhost, 127.0.0.0/8, ::1): such a service (Ollama, LM Studio, ...) may take no key. */
export function isLoopbackUrl(baseUrl: string): boolean {
  if (!URL.canParse(baseUrl)) return false;
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
