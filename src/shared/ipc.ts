// The IPC contract: the only place a channel is named. Main validates every
// invoke against its input schema; the preload and the test bridge derive the
// renderer's `window.mino` functions from these two tables. To add a feature,
// add entries here and a handler in the service; nothing else names channels.
import { z } from 'zod';
import { SessionSummarySchema, SessionIdSchema } from './domain';
import {
  ApprovalAnswerResultSchema,
  ApprovalAnswerSchema,
  ApprovalClosedSchema,
  ApprovalRequestSchema,
  CompactionEventSchema,
  EditSummaryInputSchema,
  ModeChangeInputSchema,
  ModeChangeResultSchema,
  SendMessageInputSchema,
  SessionEventSchema,
  SessionOpenResultSchema,
  SessionViewSchema,
} from './sessions';
import { SkillsViewSchema } from './skills';
import { ReversalPlanSchema, ReversalReportSchema, ReversalTargetSchema, SessionChangesSchema } from './changes';
import { SettingsPatchSchema, SettingsViewSchema } from './settings';
import { FileListInputSchema, FileListingSchema, FileSearchInputSchema, FileSearchSchema } from './files';
import { issuesText } from './zodIssues';
import { SessionTitleSchema } from './sessionTitle';
import { SteerInputSchema, SteerResultSchema } from './steering';
import { ImageAddedSchema, ImageAddInputSchema, ImageDataSchema, ImageReadInputSchema } from './images';
import { ForkInputSchema } from './fork';
import {
  ConnectionReportSchema,
  ServiceModelsSchema,
  ServiceNameInputSchema,
  ServiceSaveInputSchema,
  ServicesViewSchema,
  SessionModelInputSchema,
  SessionModelSchema,
} from './serviceViews';
import { ServiceNameSchema } from './modelServices';
import { EvalPickResultSchema, EvalProgressSchema, EvalRunInputSchema, EvalSessionInputSchema, EvalSessionViewSchema, EvalViewSchema } from './evaluate';
import { LedgerQuerySchema, LedgerViewSchema, RuleAddInputSchema, RuleChangeResultSchema, RuleRemoveInputSchema, RulesViewSchema } from './rules';

/** What crosses the boundary: `invoke` loses error types, so refusals travel as values. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: string };

// ---------------------------------------------------------------- settings

/** One configured MCP server as Settings shows it: where it is and whether it connects, never its credentials. */
export const McpServerStatusSchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** The command line, or the URL's origin and path. */
  destination: z.string(),
  /** `not_connected`: not tried (no project is open, so no server was started). */
  state: z.enum(['connected', 'failed', 'not_connected']),
  /** Why it failed, for the person. */
  error: z.string().optional(),
  /** How many tools it offers, once it has connected. */
  toolCount: z.number().int().nonnegative().optional(),
});
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>;

export const McpStatusSchema = z.object({
  /** ~/.mino/mcp.json, where servers are configured. */
  configPath: z.string(),
  /** Mistakes in the file and tool name collisions, one line each. */
  problems: z.array(z.string()),
  servers: z.array(McpServerStatusSchema),
});
export type McpStatus = z.infer<typeof McpStatusSchema>;

// ---------------------------------------------------------------- app, key, projects

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  /** The folder of the diagnostic trail (mino-YYYY-MM-DD.log files), or null where none is written. */
  logDirectory: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** Whether a key is available; the key itself never reaches the renderer. */
export const ApiKeyStatusSchema = z.object({
  set: z.boolean(),
  /** `environment`: OPENAI_API_KEY, which wins over a stored key. */
  source: z.enum(['environment', 'stored']).nullable(),
});
export type ApiKeyStatus = z.infer<typeof ApiKeyStatusSchema>;

export const ApiKeyInputSchema = z.strictObject({
  apiKey: z
    .string({ error: 'The API key must be text.' })
    .trim()
    .min(1, 'The API key cannot be empty.')
    .max(4096, 'The API key is longer than 4096 characters: check that you pasted only the key.')
    .refine((key) => !/\s/.test(key), 'The API key cannot contain spaces or line breaks: paste only the key.'),
});

export const ProjectSchema = z.object({
  /** Absolute real path of the project directory. */
  path: z.string(),
  /** The folder's name, for display. */
  name: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const RecentProjectSchema = ProjectSchema.extend({
  openedAt: z.string(),
});
export type RecentProject = z.infer<typeof RecentProjectSchema>;

/** `opened: false` means the person cancelled the folder picker. */
export const OpenProjectResultSchema = z.discriminatedUnion('opened', [
  z.object({ opened: z.literal(true), project: ProjectSchema }),
  z.object({ opened: z.literal(false) }),
]);
export type OpenProjectResult = z.infer<typeof OpenProjectResultSchema>;

const NoInput = z.undefined({ error: 'This request takes no input.' });

/** A link the person asked to open, as main will open it, and the one-time id opening it takes. */
export const LinkCheckSchema = z.object({ id: z.uuid(), url: z.string() });
export type LinkCheck = z.infer<typeof LinkCheckSchema>;

/** A menu item the person chose; the window does what it names through its ordinary requests. */
export const MenuCommandSchema = z.object({ command: z.enum(['openProject', 'newSession', 'openSettings']) });
export type MenuCommand = z.infer<typeof MenuCommandSchema>['command'];

// ---------------------------------------------------------------- the tables

/**
 * Renderer-to-main requests. `method` is the name of the function on
 * `window.mino`; each call resolves to an `IpcResult` of `output`.
 */
export const INVOKE_CHANNELS = {
  'app:info': { method: 'getAppInfo', input: NoInput, output: AppInfoSchema },
  'settings:get': { method: 'getSettings', input: NoInput, output: SettingsViewSchema },
  'settings:set': { method: 'saveSettings', input: SettingsPatchSchema, output: SettingsViewSchema },
  // Starts the configured MCP servers for this window's project, checks them and stops them again.
  'mcp:status': { method: 'getMcpStatus', input: NoInput, output: McpStatusSchema },
  // The skills of this window's session (or, without one, those its project and ~/.mino/skills hold), offered or not.
  'skills:list': { method: 'getSkills', input: NoInput, output: SkillsViewSchema },
  // Looks for the session's skills again; they apply from its next turn.
  'skills:reload': { method: 'reloadSkills', input: NoInput, output: SkillsViewSchema },
  // What this window's session's turns changed, newest first.
  'changes:list': { method: 'listChanges', input: NoInput, output: SessionChangesSchema },
  // The files an undo or redo would handle, for the person to confirm.
  'changes:plan': { method: 'planReversal', input: ReversalTargetSchema, output: ReversalPlanSchema },
  // The person's own undo or redo of a turn (or one call); no approval, never clobbers later work.
  'changes:reverse': { method: 'reverseChanges', input: ReversalTargetSchema, output: ReversalReportSchema },
  'apiKey:status': { method: 'getApiKeyStatus', input: NoInput, output: ApiKeyStatusSchema },
  'apiKey:set': { method: 'setApiKey', input: ApiKeyInputSchema, output: ApiKeyStatusSchema },
  // Model services (Settings → Services, the first-run setup, the session's model picker): never a key, only where it comes from.
  'services:list': { method: 'getServices', input: NoInput, output: ServicesViewSchema },
  'services:save': { method: 'saveService', input: ServiceSaveInputSchema, output: ServicesViewSchema },
  'services:remove': { method: 'removeService', input: ServiceNameInputSchema, output: ServicesViewSchema },
  'services:setKey': { method: 'setServiceKey', input: ApiKeyInputSchema.extend({ name: ServiceNameSchema }), output: ServicesViewSchema },
  'services:deleteKey': { method: 'deleteServiceKey', input: ServiceNameInputSchema, output: ServicesViewSchema },
  'services:test': { method: 'testService', input: ServiceNameInputSchema, output: ConnectionReportSchema },
  'services:models': { method: 'listServiceModels', input: ServiceNameInputSchema, output: ServiceModelsSchema },
  'session:model': { method: 'getSessionModel', input: NoInput, output: SessionModelSchema },
  'session:setModel': { method: 'setSessionModel', input: SessionModelInputSchema, output: SessionModelSchema },
  'projects:recent': { method: 'listRecentProjects', input: NoInput, output: z.array(RecentProjectSchema) },
  'projects:pick': { method: 'openProject', input: NoInput, output: OpenProjectResultSchema },
  'projects:openRecent': {
    method: 'openRecentProject',
    input: z.strictObject({ path: z.string({ error: 'The project path must be text.' }).min(1, 'The project path cannot be empty.') }),
    output: OpenProjectResultSchema,
  },
  'projects:current': { method: 'getCurrentProject', input: NoInput, output: ProjectSchema.nullable() },
  // A folder the person dropped on the window, checked like the picker's choice. The renderer passes the dropped
  // File itself: the preload turns it into its path (`argument: 'droppedFile'`), so a page can name no other folder.
  'projects:openDropped': {
    method: 'openDroppedProject',
    input: z.strictObject({ path: z.string({ error: 'The dropped path must be text.' }).max(4096, 'The dropped path is longer than 4096 characters.') }),
    output: OpenProjectResultSchema,
    argument: 'droppedFile',
  },
  // One folder of this window's project for its file list (read-only; protected entries marked, .git/ left out).
  'files:list': { method: 'listProjectFiles', input: FileListInputSchema, output: FileListingSchema },
  // This window's project's files and folders whose path contains the query, for the filter and @mentions.
  'files:find': { method: 'findProjectFiles', input: FileSearchInputSchema, output: FileSearchSchema },
  // Sessions belong to the window that opened them; the service knows which from the sender, never the payload.
  'sessions:list': { method: 'listSessions', input: NoInput, output: z.array(SessionSummarySchema) },
  'sessions:new': { method: 'newSession', input: NoInput, output: SessionOpenResultSchema },
  // `where` (default: here if this window has no session, else a new window): `here` closes this window's session first.
  'sessions:open': {
    method: 'openSession',
    input: z.strictObject({ id: SessionIdSchema, where: z.enum(['here', 'new-window'], { error: 'Open a session "here" or in a "new-window".' }).optional() }),
    output: SessionOpenResultSchema,
  },
  // Names a saved session of this window's project (open anywhere or not); the title is kept in its log.
  'sessions:rename': {
    method: 'renameSession',
    input: z.strictObject({ id: SessionIdSchema, title: SessionTitleSchema }),
    output: SessionSummarySchema,
  },
  'sessions:current': { method: 'getCurrentSession', input: NoInput, output: SessionViewSchema.nullable() },
  'sessions:clear': { method: 'clearSession', input: NoInput, output: SessionViewSchema },
  'sessions:acknowledge': { method: 'acknowledgeUnknownResults', input: NoInput, output: SessionViewSchema },
  // Edit and resend: a new session (a fork) holding this window's session before one of the person's messages, opened here.
  'sessions:fork': { method: 'forkSession', input: ForkInputSchema, output: SessionOpenResultSchema },
  // Images in messages: the bytes of one pasted, dropped or attached image, checked and kept by main; a thumbnail read back by id.
  'images:add': { method: 'addImage', input: ImageAddInputSchema, output: ImageAddedSchema },
  'images:read': { method: 'readImage', input: ImageReadInputSchema, output: ImageDataSchema },
  'turn:send': { method: 'sendMessage', input: SendMessageInputSchema, output: z.object({ started: z.literal(true) }) },
  'turn:stop': { method: 'stopTurn', input: NoInput, output: z.object({ stopped: z.boolean() }) },
  // Retry: the failed last turn run again for its saved message, which is not saved, shown or sent twice.
  'turn:retry': { method: 'retryTurn', input: NoInput, output: z.object({ started: z.literal(true) }) },
  // Send now: a queued message handed to the running turn, sent before its next model request (or refused, saying why).
  'turn:steer': { method: 'steerTurn', input: SteerInputSchema, output: SteerResultSchema },
  // Summarizes this window's session's earlier turns now (between turns); `turn:stop` stops it.
  'context:compact': { method: 'compactSession', input: NoInput, output: CompactionEventSchema },
  // Saves the person's rewrite of the summary in force, as a new record written by the person.
  'context:editSummary': { method: 'editSummary', input: EditSummaryInputSchema, output: CompactionEventSchema },
  'approvals:answer': { method: 'answerApproval', input: ApprovalAnswerSchema, output: ApprovalAnswerResultSchema },
  // The global rules and this window's project's. Adding or removing one that loosens waits for the person's yes in main.
  'rules:list': { method: 'listRules', input: NoInput, output: RulesViewSchema },
  'rules:add': { method: 'addRule', input: RuleAddInputSchema, output: RuleChangeResultSchema },
  'rules:remove': { method: 'removeRule', input: RuleRemoveInputSchema, output: RuleChangeResultSchema },
  // This window's project's decision ledger, newest first, filtered.
  'ledger:list': { method: 'listLedger', input: LedgerQuerySchema, output: LedgerViewSchema },
  'mode:set': { method: 'setPermissionMode', input: ModeChangeInputSchema, output: ModeChangeResultSchema },
  // The Evaluate view: a case file chosen in main's own dialog, a run of it (or of the built-in suite) through
  // the same code as `mino eval`, and a run's saved session replayed read-only.
  'eval:pick': { method: 'pickEvalCaseFile', input: NoInput, output: EvalPickResultSchema },
  'eval:run': { method: 'runEvaluation', input: EvalRunInputSchema, output: EvalViewSchema },
  'eval:session': { method: 'getEvalRunSession', input: EvalSessionInputSchema, output: EvalSessionViewSchema },
  // Stops this window's evaluation before its next run; the runs so far are kept.
  'eval:stop': { method: 'stopEvaluation', input: NoInput, output: z.object({ stopping: z.boolean() }) },
  // A link the person asked to open: main checks it and issues a one-time id; only `links:open` with that id opens it.
  'links:check': {
    method: 'checkLink',
    input: z.strictObject({ url: z.string({ error: 'The link must be text.' }).min(1, 'The link is empty.').max(8192, 'The link is longer than 8192 characters.') }),
    output: LinkCheckSchema,
  },
  'links:open': {
    method: 'openLink',
    input: z.strictObject({ id: z.uuid({ error: 'The link confirmation id is not valid. Click the link again.' }) }),
    output: z.object({ opened: z.literal(true) }),
  },
} as const satisfies Record<string, { method: string; input: z.ZodType; output: z.ZodType; argument?: InvokeArgument }>;

/**
 * What a request function of `window.mino` takes: its input as the schema
 * says (the default), or `droppedFile`: a File from a drop event, which the
 * preload (alone able to) turns into `{ path }`, the file's place on disk ('' if
 * it has none, such as a File a page made itself).
 */
export type InvokeArgument = 'input' | 'droppedFile';

export function invokeArgument(channel: InvokeChannel): InvokeArgument {
  const spec = INVOKE_CHANNELS[channel];
  return 'argument' in spec ? spec.argument : 'input';
}

/**
 * Main-to-renderer events. `subscribe` is the name of the function on
 * `window.mino` that registers a callback; it returns an unsubscribe function.
 */
export const EVENT_CHANNELS = {
  'settings:changed': { subscribe: 'onSettingsChanged', payload: SettingsViewSchema },
  'projects:recentChanged': { subscribe: 'onRecentProjectsChanged', payload: z.array(RecentProjectSchema) },
  /** Events of this window's session: streamed text, tool cards, results, turn end. */
  'session:event': { subscribe: 'onSessionEvent', payload: SessionEventSchema },
  /** This window's session changed state (mode, busy, unknown results, cleared). */
  'session:changed': { subscribe: 'onSessionChanged', payload: SessionViewSchema },
  /** An ask for this window's session: show the modal dialog. */
  'approval:request': { subscribe: 'onApprovalRequest', payload: ApprovalRequestSchema },
  /** An ask ended without an answer from this window (turn stopped, window lost): close its dialog. */
  'approval:closed': { subscribe: 'onApprovalClosed', payload: ApprovalClosedSchema },
  /** The person chose a menu item for this window (Open Project…, New Session, Settings…). */
  'menu:command': { subscribe: 'onMenuCommand', payload: MenuCommandSchema },
  /** A model service, its key or a connection test changed (every window: Settings, the first-run setup, the picker). */
  'services:changed': { subscribe: 'onServicesChanged', payload: ServicesViewSchema },
  /** A run of this window's evaluation was scored. */
  'eval:progress': { subscribe: 'onEvalProgress', payload: EvalProgressSchema },
} as const satisfies Record<string, { subscribe: string; payload: z.ZodType }>;

export type InvokeChannels = typeof INVOKE_CHANNELS;
export type InvokeChannel = keyof InvokeChannels;
export type InvokeInput<K extends InvokeChannel> = z.output<InvokeChannels[K]['input']>;
export type InvokeOutput<K extends InvokeChannel> = z.output<InvokeChannels[K]['output']>;

export type EventChannels = typeof EVENT_CHANNELS;
export type EventChannel = keyof EventChannels;
export type EventPayload<K extends EventChannel> = z.output<EventChannels[K]['payload']>;

export function isInvokeChannel(name: unknown): name is InvokeChannel {
  return typeof name === 'string' && Object.hasOwn(INVOKE_CHANNELS, name);
}

/** Prefix of the IPC channel an event travels on, so events and invokes never share a name. */
export const EVENT_IPC_PREFIX = 'mino-event:';

// ---------------------------------------------------------------- the renderer's API

type InvokeFunction<K extends InvokeChannel> = InvokeChannels[K] extends { argument: 'droppedFile' }
  ? (droppedFile: unknown) => Promise<IpcResult<InvokeOutput<K>>>
  : undefined extends z.input<InvokeChannels[K]['input']>
  ? () => Promise<IpcResult<InvokeOutput<K>>>
  : (input: z.input<InvokeChannels[K]['input']>) => Promise<IpcResult<InvokeOutput<K>>>;

type SubscribeFunction<K extends EventChannel> = (callback: (payload: EventPayload<K>) => void) => () => void;

/** `window.mino`: one function per channel and per event, named by the tables above. */
export type MinoApi = {
  readonly [K in InvokeChannel as InvokeChannels[K]['method']]: InvokeFunction<K>;
} & {
  readonly [K in EventChannel as EventChannels[K]['subscribe']]: SubscribeFunction<K>;
};

/** The (method, channel) pairs a transport needs to build `window.mino`; plain data, serialisable. */
export function apiShape(): {
  invokes: Array<[method: string, channel: string, argument: InvokeArgument]>;
  events: Array<[subscribe: string, channel: string]>;
} {
  return {
    invokes: Object.entries(INVOKE_CHANNELS).map(([channel, spec]) => [spec.method, channel, invokeArgument(channel as InvokeChannel)]),
    events: Object.entries(EVENT_CHANNELS).map(([channel, spec]) => [spec.subscribe, channel]),
  };
}

/** One line per problem, for a person: "Invalid request settings:set: model: The model name cannot be empty…". */
export function describeInvalidInput(channel: string, error: z.ZodError): string {
  return `Invalid request ${channel}: ${issuesText(error)}`;
}
