// The model services as a window sees them (Settings → Services, the first-run
// setup, the session's model picker): each service's configuration and where
// its key comes from, never the key itself.
import { z } from 'zod';
import { ServiceConfigSchema, ServiceNameSchema, WireProtocolSchema } from './modelServices';
import { ModelNameSchema } from './settings';

/** Where a service's key comes from: its environment variable, the key stored on this computer, or nowhere. */
export const ServiceKeySourceSchema = z.enum(['environment', 'stored']).nullable();

export const ServiceEntrySchema = z.object({
  name: z.string(),
  protocol: WireProtocolSchema,
  baseUrl: z.string(),
  model: z.string(),
  apiKeyEnv: z.string().nullable(),
  contextWindow: z.number().nullable(),
  /** Where its key comes from; null when it has none. */
  keySource: ServiceKeySourceSchema,
  /** On this machine: it may work without a key. */
  local: z.boolean(),
  /** It passed Test connection as it is configured now. */
  tested: z.boolean(),
  /** Messages can be sent to it: it has a key, or needs none and passed Test connection. */
  ready: z.boolean(),
  /** The service new sessions use. */
  isDefault: z.boolean(),
  /** `default`: made from the single-service settings; it cannot be removed, and speaks the Responses API. */
  builtIn: z.boolean(),
});
export type ServiceEntry = z.infer<typeof ServiceEntrySchema>;

export const ServicePresetViewSchema = z.object({
  label: z.string(),
  service: ServiceConfigSchema,
  /** What the person must still fill in; null when the preset knows everything. */
  fill: z.string().nullable(),
  docs: z.string(),
  /** Whether the preset's key variable is set in the environment Mino started in. */
  keyInEnvironment: z.boolean(),
});
export type ServicePresetView = z.infer<typeof ServicePresetViewSchema>;

export const ServicesViewSchema = z.object({
  services: z.array(ServiceEntrySchema),
  presets: z.array(ServicePresetViewSchema),
  /** Whether any service is ready; without one, sending is refused and the first-run setup is offered. */
  ready: z.boolean(),
  /** ~/.mino/config.json, where the services are kept. */
  path: z.string(),
  /** Why the settings file cannot be read; the list is empty then. */
  problem: z.string().nullable(),
});
export type ServicesView = z.infer<typeof ServicesViewSchema>;

/** Adds or replaces (by name) one service; `makeDefault` makes it the one new sessions use. */
export const ServiceSaveInputSchema = z.strictObject({
  service: ServiceConfigSchema,
  makeDefault: z.boolean({ error: 'makeDefault must be true or false.' }).optional(),
});
export type ServiceSaveInput = z.infer<typeof ServiceSaveInputSchema>;

export const ServiceNameInputSchema = z.strictObject({ name: ServiceNameSchema });

export const ConnectionProblemKindSchema = z.enum([
  'name_resolution',
  'tls',
  'refused',
  'unreachable',
  'key',
  'url_not_found',
  'model_not_found',
  'no_tool_calling',
  'wrong_protocol',
  'refused_request',
]);

/** What Test connection found: what failed (null: nothing), the models the service lists, a local server's context length. */
export const ConnectionReportSchema = z.object({
  name: z.string(),
  problem: z.object({ kind: ConnectionProblemKindSchema, message: z.string() }).nullable(),
  models: z.array(z.string()).nullable(),
  contextLength: z.number().nullable(),
});
export type ConnectionReportView = z.infer<typeof ConnectionReportSchema>;

/** The models a service lists; null with the reason when it gave no list. */
export const ServiceModelsSchema = z.object({
  name: z.string(),
  models: z.array(z.string()).nullable(),
  problem: z.string().nullable(),
});
export type ServiceModels = z.infer<typeof ServiceModelsSchema>;

/** The service and model a window's session uses; `pending` while a running turn keeps the earlier choice. */
export const SessionModelSchema = z.object({
  service: z.string(),
  model: z.string(),
  /** The choice waits for the running turn to end. */
  pending: z.boolean(),
});
export type SessionModel = z.infer<typeof SessionModelSchema>;

export const SessionModelInputSchema = z.strictObject({ service: ServiceNameSchema, model: ModelNameSchema });
