// Settings: the one description of every field a person can set. The
// contract's schemas, the defaults, the stored (partial) form, the service's
// checks and the renderer's Settings form are all derived from SETTING_FIELDS.
//
// To add a setting, add one entry to SETTING_FIELDS: a label, a line of help,
// the kind of input the form shows, a zod schema whose messages say how to
// fix a bad value, and a default. Code that needs it reads `settings.<name>`.
import { z } from 'zod';
import { DEFAULT_SANDBOX_READABLE, sandboxReadableProblem } from './sandboxReadable';
import { SandboxStatusSchema } from './sandboxStatus';

/** How the Settings form shows a field and turns what was typed into a value. */
export type SettingKind =
  | { type: 'text' }
  | { type: 'url' }
  /** A whole number; `unit` is shown after the label, e.g. "tokens". */
  | { type: 'integer'; unit?: string }
  | { type: 'boolean' }
  | { type: 'choice'; options: ReadonlyArray<{ value: string; label: string }> }
  /** A list of strings, typed one per line. */
  | { type: 'list' };

export interface SettingField<S extends z.ZodType = z.ZodType> {
  label: string;
  /** One line under the field: what it does and when to change it. */
  help: string;
  kind: SettingKind;
  schema: S;
  default: z.output<S>;
}

/** Typed constructor, so a default that does not fit its schema is a compile error. */
function setting<S extends z.ZodType>(field: SettingField<S>): SettingField<S> {
  return field;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Plain http would send the API key unencrypted, so it is accepted only for a service on this machine. */
function isEncryptedOrLocal(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

export const BaseUrlSchema = z
  .string({ error: 'The model service base URL must be text, e.g. https://api.openai.com/v1.' })
  .trim()
  .refine(isHttpUrl, 'The model service base URL must be an http:// or https:// URL, e.g. https://api.openai.com/v1.')
  .refine(
    isEncryptedOrLocal,
    'The model service base URL must use https://, so your API key is not sent unencrypted (http:// is accepted only for localhost or 127.0.0.1).',
  );

export const ModelNameSchema = z
  .string({ error: 'The model name must be text, e.g. gpt-5-mini.' })
  .trim()
  .min(1, 'The model name cannot be empty: enter the name your model service uses, e.g. gpt-5-mini.')
  .max(200, 'The model name is longer than 200 characters: check that you pasted only the name.');

export const ContextWindowSchema = z
  .number({ error: 'The context window must be a number of tokens, e.g. 128000.' })
  .int('The context window must be a whole number of tokens, e.g. 128000.')
  .positive('The context window must be a positive number of tokens, e.g. 128000.')
  .max(Number.MAX_SAFE_INTEGER, 'The context window is too large: use the size your model documents, e.g. 128000.');

export const StreamIdleTimeoutSchema = z
  .number({ error: 'The stream idle timeout must be a number of seconds, e.g. 120.' })
  .int('The stream idle timeout must be a whole number of seconds, e.g. 120.')
  .min(5, 'The stream idle timeout must be at least 5 seconds: a model often pauses that long between parts of an answer.')
  .max(3600, 'The stream idle timeout can be at most 3600 seconds (an hour).');

/** Percent of the context window at which Mino compacts before the next request. */
export const CompactThresholdSchema = z
  .number({ error: 'The compaction threshold must be a percentage of the context window, e.g. 80.' })
  .int('The compaction threshold must be a whole percentage, e.g. 80.')
  .min(10, 'The compaction threshold must be at least 10 (percent of the context window).')
  .max(95, 'The compaction threshold can be at most 95 (percent of the context window), so a request and its answer still fit.');

/** `auto`: on for OpenAI's reasoning model families, and once a response has carried reasoning. */
export const REASONING_SETTINGS = ['auto', 'on', 'off'] as const;
/** `default`: no effort is sent, so the service uses its own. */
export const REASONING_EFFORT_SETTINGS = ['default', 'minimal', 'low', 'medium', 'high'] as const;
/** `system`: light or dark as the operating system's setting says, following it when it changes. */
export const THEME_SETTINGS = ['system', 'light', 'dark'] as const;

/** Every setting, in the order the Settings form shows them. */
export const SETTING_FIELDS = {
  baseUrl: setting({
    label: 'Base URL',
    help: 'Where the model service answers; any service that speaks the OpenAI Responses API. OPENAI_BASE_URL wins over it.',
    kind: { type: 'url' },
    schema: BaseUrlSchema,
    default: 'https://api.openai.com/v1',
  }),
  model: setting({
    label: 'Model name',
    help: 'The name your model service uses for the model. MINO_MODEL wins over it.',
    kind: { type: 'text' },
    schema: ModelNameSchema,
    default: 'gpt-5-mini',
  }),
  contextWindow: setting({
    label: 'Context window',
    help: 'How many tokens the model can read at once, as its documentation states.',
    kind: { type: 'integer', unit: 'tokens' },
    schema: ContextWindowSchema,
    default: 128_000,
  }),
  checkpointCapMb: setting({
    label: 'Undo history size',
    help: 'How much Mino keeps in ~/.mino/checkpoints so file changes can be undone, across sessions; the oldest sessions are dropped first.',
    kind: { type: 'integer', unit: 'MB' },
    schema: z
      .number({ error: 'The undo history size must be a number of megabytes, e.g. 500.' })
      .int('The undo history size must be a whole number of megabytes, e.g. 500.')
      .min(1, 'The undo history size must be at least 1 MB.')
      .max(1_000_000, 'The undo history size is at most 1,000,000 MB.'),
    default: 500,
  }),
  streamIdleTimeout: setting({
    label: 'Stream idle timeout',
    help: 'How long to wait for the next part of an answer before deciding the model service stopped sending. Raise it for a slow service.',
    kind: { type: 'integer', unit: 'seconds' },
    schema: StreamIdleTimeoutSchema,
    default: 120,
  }),
  bashSandbox: setting({
    label: 'Sandbox bash commands',
    help:
      'Run bash commands in the kernel sandbox where this machine has one (project writable except .git, no network, secrets hidden). ' +
      'Turned off, every command runs with your full rights.',
    kind: { type: 'boolean' },
    schema: z.boolean({ error: 'bashSandbox must be true or false.' }),
    default: true,
  }),
  sandboxReadable: setting({
    label: 'Home folders the sandbox can read',
    help:
      'A sandboxed command sees an empty home except these folders (read-only), one per line: where your toolchains live. ' +
      'Credentials elsewhere in your home (git, gh, docker, cloud CLIs, other agents) stay out of its reach.',
    kind: { type: 'list' },
    schema: z
      .array(
        z.string({ error: 'Each sandbox-readable folder must be text, e.g. ~/.cargo/bin.' }).superRefine((entry, ctx) => {
          const problem = sandboxReadableProblem(entry);
          if (problem !== null) ctx.addIssue({ code: 'custom', message: `Sandbox-readable folders: ${problem}.` });
        }),
        { error: 'sandboxReadable must be a list of folders, e.g. ["~/.cargo/bin", "~/.rustup"].' },
      )
      .max(200, 'sandboxReadable can name at most 200 folders.'),
    default: [...DEFAULT_SANDBOX_READABLE],
  }),
  compactThreshold: setting({
    label: 'Compact at',
    help: 'Before a request that would use this share of the context window, Mino first replaces the earlier turns with a summary you can read and edit.',
    kind: { type: 'integer', unit: '% of the context window' },
    schema: CompactThresholdSchema,
    default: 80,
  }),
  reasoning: setting({
    label: 'Reasoning',
    help: "Ask for the model's reasoning (kept encrypted in the session) and a reasoning summary. Auto: for OpenAI's reasoning models, and once a model sent reasoning. Turn it off if your service rejects it.",
    kind: {
      type: 'choice',
      options: [
        { value: 'auto', label: 'Auto' },
        { value: 'on', label: 'On' },
        { value: 'off', label: 'Off' },
      ],
    },
    schema: z.enum(REASONING_SETTINGS, { error: 'Reasoning must be auto, on or off.' }),
    default: 'auto',
  }),
  reasoningEffort: setting({
    label: 'Reasoning effort',
    help: "How much the model reasons before answering; sent only when you choose one (Default: the service's own).",
    kind: {
      type: 'choice',
      options: [
        { value: 'default', label: 'Default' },
        { value: 'minimal', label: 'Minimal' },
        { value: 'low', label: 'Low' },
        { value: 'medium', label: 'Medium' },
        { value: 'high', label: 'High' },
      ],
    },
    schema: z.enum(REASONING_EFFORT_SETTINGS, { error: 'Reasoning effort must be default, minimal, low, medium or high.' }),
    default: 'default',
  }),
  theme: setting({
    label: 'Theme',
    help: "The window's colours. System follows your operating system's light or dark setting, also when it changes.",
    kind: {
      type: 'choice',
      options: [
        { value: 'system', label: 'System' },
        { value: 'light', label: 'Light' },
        { value: 'dark', label: 'Dark' },
      ],
    },
    schema: z.enum(THEME_SETTINGS, { error: 'Theme must be system, light or dark.' }),
    default: 'system',
  }),
};

export type SettingFields = typeof SETTING_FIELDS;
export type SettingName = keyof SettingFields;
export const SETTING_NAMES = Object.keys(SETTING_FIELDS) as SettingName[];

type SettingsShape = { [K in SettingName]: SettingFields[K]['schema'] };
const settingsShape = Object.fromEntries(SETTING_NAMES.map((name) => [name, SETTING_FIELDS[name].schema])) as SettingsShape;

/** Complete settings, as every reader sees them (the stored values over the defaults). */
export const SettingsSchema = z.strictObject(settingsShape);
export type Settings = z.infer<typeof SettingsSchema>;

/** What `settings:set` takes: any of the fields; the rest keep their current values. */
export const SettingsPatchSchema = SettingsSchema.partial();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/**
 * ~/.mino/config.json: only what a person changed, so a later default
 * reaches every setting they never touched. Keys Mino does not know are kept
 * (another version of Mino may have written them) and reported.
 */
export const StoredSettingsSchema = z.looseObject(SettingsPatchSchema.shape);

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze(
  Object.fromEntries(SETTING_NAMES.map((name) => [name, SETTING_FIELDS[name].default])) as Settings,
);

export const SettingsViewSchema = z.object({
  settings: SettingsSchema,
  /** Where they are stored, so a person can find the file. */
  path: z.string(),
  /** Problems in the file that did not stop Mino (an unknown key), one line each, saying what to do. */
  problems: z.array(z.string()),
  /** What sandboxes bash commands under these settings, for the person to see. */
  sandbox: SandboxStatusSchema,
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;

/** The label the form shows, with the unit if the kind has one: "Context window (tokens)". */
export function settingLabel(field: SettingField): string {
  return field.kind.type === 'integer' && field.kind.unit ? `${field.label} (${field.kind.unit})` : field.label;
}

/** What the form shows for a value: text inputs hold strings, a checkbox a boolean. */
export function settingToInput(field: SettingField, value: unknown): string | boolean {
  if (field.kind.type === 'boolean') return value === true;
  if (field.kind.type === 'list') return Array.isArray(value) ? value.join('\n') : '';
  return value === undefined || value === null ? '' : String(value);
}

/**
 * What was typed, as the value the schema checks. Nothing is corrected here:
 * an empty or non-numeric integer becomes NaN, so the schema's own message
 * reaches the person.
 */
export function settingFromInput(field: SettingField, input: string | boolean): unknown {
  switch (field.kind.type) {
    case 'boolean':
      return input === true;
    case 'integer': {
      const text = String(input).trim();
      return text === '' ? Number.NaN : Number(text);
    }
    case 'list':
      return String(input)
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
    default:
      return String(input);
  }
}

/** The schema's messages for what was typed, one per problem (none when it is valid), for the form to show under the field. */
export function settingProblems(field: SettingField, input: string | boolean): string[] {
  const parsed = field.schema.safeParse(settingFromInput(field, input));
  return parsed.success ? [] : [...new Set(parsed.error.issues.map((issue) => issue.message))];
}
