// What a session window shows and sends: the turn events the agent loop
// reports (display-only), the session's view, approvals and mode changes.
// The channel table in ipc.ts refers to these schemas.
import { z } from 'zod';
import { withThousands } from './formatNumber';
import { ImageRefSchema, MessageImagesSchema } from './images';
import { MessageTextSchema } from './messageText';
import { PLAN_STEP_STATUSES } from './planSteps';
import { ReviewAnswerSchema, ReviewSubjectSchema } from './review';
import {
  ConfirmationSchema,
  DecisionSchema,
  ToolDisplaySchema,
  MODE_LIST,
  PermissionModeSchema,
  SessionIdSchema,
  ToolStatusSchema,
  TURN_END_STATUSES,
} from './domain';


const TokensSchema = z.number().int().nonnegative();

/** Tokens the model service reported, summed over a turn's requests. */
export const TurnUsageSchema = z.object({
  inputTokens: TokensSchema,
  cachedInputTokens: TokensSchema,
  outputTokens: TokensSchema,
  reasoningTokens: TokensSchema,
});
export type TurnUsage = z.infer<typeof TurnUsageSchema>;

/** How much of the context window the session uses now. */
export const ContextUseSchema = z.object({ used: TokensSchema, window: TokensSchema });
export type ContextUse = z.infer<typeof ContextUseSchema>;

/**
 * The history before `summarized.to` (record positions) was replaced by
 * `summary`. `auto`: Mino compacted before a request; `manual`: the person
 * asked; `edit`: the person rewrote the summary (author `person`).
 */
export const CompactionEventSchema = z.object({
  type: z.literal('compaction'),
  trigger: z.enum(['auto', 'manual', 'edit']),
  author: z.enum(['model', 'person']),
  tokensBefore: TokensSchema,
  tokensAfter: TokensSchema,
  summary: z.string(),
  summarized: z.object({ from: z.number().int(), to: z.number().int() }),
  /** How many of the person's messages before this point stay verbatim (the turns it kept); the earlier ones are summarized. */
  keptTurns: z.number().int().nonnegative(),
});
export type CompactionEvent = z.infer<typeof CompactionEventSchema>;

/**
 * The most of a running command's live output worth keeping, in characters:
 * the newest part. The service sends no more than this in one batch and a
 * window keeps no more than this per call; the result carries the rest.
 */
export const LIVE_OUTPUT_TAIL_CHARS = 32 * 1024;

/** The model's plan as update_plan recorded it last: every step, in order, at most one in progress. */
export const PlanSchema = z.object({
  steps: z.array(z.object({ step: z.string(), status: z.enum(PLAN_STEP_STATUSES) })),
  /** Why the plan changed, as the model said it. */
  explanation: z.string().optional(),
});
export type Plan = z.infer<typeof PlanSchema>;

/**
 * The project's instruction file (AGENTS.md, else CLAUDE.md, at the project
 * root) as the model was told it: its name and what it costs of the context
 * window; the window shows "Project instructions: AGENTS.md, 2.1k tokens".
 */
export const ProjectInstructionsViewSchema = z.object({
  file: z.string(),
  /** Tokens of what the model is sent for it (0 when it was not read). */
  tokens: TokensSchema,
  /** The text the model is sent, to show on request; absent when the file was not read. */
  text: z.string().optional(),
  /** Only the first part was sent (the file is over the cap); the note says so. */
  truncated: z.boolean().optional(),
  /** Why the file was not read (a protected file, a link, not text): said to the person, and nothing of it is sent. */
  notRead: z.string().optional(),
  /** AGENTS.md files in subfolders, named to the model to read before it changes files there. */
  nested: z.array(z.string()).optional(),
});
export type ProjectInstructionsView = z.infer<typeof ProjectInstructionsViewSchema>;

/** One thing that happened in a turn, as the loop reports it to a front end. */
export const TurnEventSchema = z.discriminatedUnion('type', [
  /** `images`: the images the message carried (thumbnails are read by digest, `images:read`). */
  z.object({ type: z.literal('user_message'), text: z.string(), images: z.array(ImageRefSchema).optional() }),
  /** A message the person sent to the running turn ("Send now"), delivered now, before its next model request; saved in the log at this point. */
  z.object({ type: z.literal('steered_message'), text: z.string() }),
  /** A model request is starting. */
  z.object({ type: z.literal('assistant_start'), request: z.number() }),
  z.object({ type: z.literal('assistant_delta'), delta: z.string() }),
  /** Streamed text of the model's reasoning summary (the "Thinking" part). */
  z.object({ type: z.literal('reasoning_delta'), delta: z.string() }),
  /** The complete reasoning summary of one response, once it is saved. */
  z.object({ type: z.literal('reasoning_text'), text: z.string() }),
  /** The complete text of one assistant message, once its response is saved. */
  z.object({ type: z.literal('assistant_text'), text: z.string() }),
  /** `decision` is null when the call never reached the decision (unknown tool, invalid arguments, or a replayed record). */
  z.object({
    type: z.literal('tool_call'),
    callId: z.string(),
    name: z.string(),
    arguments: z.string(),
    decision: DecisionSchema.nullable(),
    mode: PermissionModeSchema,
    /** How to show the tool; null for a name no tool of this session has. */
    tool: ToolDisplaySchema.nullable(),
  }),
  /** The fields of a call about to run: an ask (`asked`, then an `approval`) or a mode-allowed record. */
  z.object({
    type: z.literal('tool_confirmation'),
    callId: z.string(),
    name: z.string(),
    confirmation: ConfirmationSchema,
    asked: z.boolean(),
    mode: PermissionModeSchema,
  }),
  z.object({ type: z.literal('approval'), callId: z.string(), approved: z.boolean() }),
  z.object({ type: z.literal('tool_result'), callId: z.string(), name: z.string(), status: ToolStatusSchema, output: z.string() }),
  /**
   * Output a running command printed since the last one (bash), for the
   * window to show live. Display-only and never saved: the call's result holds
   * what the model gets.
   */
  z.object({
    type: z.literal('tool_output'),
    callId: z.string(),
    chunk: z.string(),
    /** Characters printed before `chunk` that were dropped on the way (only the tail is worth showing). */
    skipped: z.number().int().nonnegative().optional(),
  }),
  /**
   * A model request failed before its answer began and will be sent again
   * after `delayMs` (attempt `attempt` of `attempts`). Transient, never saved.
   */
  z.object({
    type: z.literal('model_retry'),
    message: z.string(),
    attempt: z.number().int().positive(),
    attempts: z.number().int().positive(),
    delayMs: z.number().nonnegative(),
  }),
  /** update_plan recorded the model's plan (after its tool_result): the latest plan, in full. */
  z.object({ type: z.literal('plan'), callId: z.string(), plan: PlanSchema }),
  /**
   * The project's instruction file as this turn's instructions carry it: told
   * at a session's first turn and whenever the file changed since. Null: the
   * project has none (any more).
   */
  z.object({ type: z.literal('project_instructions'), instructions: ProjectInstructionsViewSchema.nullable() }),
  /** Something the person should know that is not part of the conversation (e.g. an MCP server failed). */
  z.object({ type: z.literal('notice'), message: z.string() }),
  CompactionEventSchema,
  z.object({
    type: z.literal('turn_end'),
    status: z.enum(TURN_END_STATUSES),
    message: z.string().optional(),
    /** What the turn's requests used, as the service reported it. */
    usage: TurnUsageSchema.optional(),
    /** The context in use after the turn. */
    context: ContextUseSchema.optional(),
  }),
]);
export type TurnEvent = z.infer<typeof TurnEventSchema>;

export const UnknownCallSchema = z.object({
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  /** Temporary files the interrupted call had left in the project, removed when the session was opened. */
  removedTempFiles: z.array(z.string()).optional(),
  /** bash: whether the command was still running when the session was resumed (and was then ended). */
  survivors: z.object({ state: z.enum(['ended', 'not_running', 'cannot_tell']), ended: z.number().int().nonnegative() }).optional(),
});
export type UnknownCallView = z.infer<typeof UnknownCallSchema>;

/** The longest summary a person can save: it must leave room in the window for the work. */
export const MAX_SUMMARY_CHARS = 100_000;

/** The summary the model reads in place of the earlier turns, as the window shows it. */
export const SummaryViewSchema = z.object({
  text: z.string(),
  author: z.enum(['model', 'person']),
  /** Record positions it replaces (see CompactionEventSchema). */
  summarized: z.object({ from: z.number().int(), to: z.number().int() }),
  /** How many of the person's messages before it stay verbatim. */
  keptTurns: z.number().int().nonnegative(),
});
export type SummaryView = z.infer<typeof SummaryViewSchema>;

/** The person's rewrite of the summary in force. */
export const EditSummaryInputSchema = z.strictObject({
  text: z
    .string({ error: 'The summary must be text.' })
    .trim()
    .min(1, 'The summary is empty: write what the model should know about the earlier work, or cancel.')
    .max(MAX_SUMMARY_CHARS, `The summary is longer than ${withThousands(MAX_SUMMARY_CHARS)} characters: shorten it.`),
});

/** A session as its window shows it. */
export const SessionViewSchema = z.object({
  id: SessionIdSchema,
  projectDir: z.string(),
  /** What the session is called: the person's title, or its first question shortened (shared/sessionTitle.ts). */
  title: z.string(),
  /** Memory-only; never saved. */
  mode: PermissionModeSchema,
  /** A turn is running. */
  busy: z.boolean(),
  /** Calls whose outcome is unknown after a crash; must be acknowledged before the next question. */
  unknownCalls: z.array(UnknownCallSchema),
  /**
   * The saved conversation so far, as events (replayed from the log, never re-run).
   * Sent when a window adopts the session (open, new, current, clear, acknowledge);
   * omitted from `session:changed`, so a change never re-reads a long log.
   */
  past: z.array(TurnEventSchema).optional(),
  /** Problems found when loading (e.g. a broken last line set aside). */
  loadProblems: z.array(z.string()),
  /** The context in use and the window, for the meter; null when it could not be counted. Sent with `past`. */
  context: ContextUseSchema.nullable().optional(),
  /** The summary in force; null when the history starts with none. Sent with `past`. */
  summary: SummaryViewSchema.nullable().optional(),
  /** The project's instruction file as the model is told it; null when the project has none. */
  projectInstructions: ProjectInstructionsViewSchema.nullable().optional(),
});
export type SessionView = z.infer<typeof SessionViewSchema>;

/** `here`: the session is now this window's. `elsewhere`: it is open in (or was opened in) another window, which was focused. */
export const SessionOpenResultSchema = z.discriminatedUnion('where', [
  z.object({ where: z.literal('here'), session: SessionViewSchema }),
  z.object({ where: z.literal('elsewhere'), sessionId: SessionIdSchema }),
]);
export type SessionOpenResult = z.infer<typeof SessionOpenResultSchema>;

/** `images`: the ids `images:add` returned, in the order attached. */
export const SendMessageInputSchema = z.strictObject({ text: MessageTextSchema, images: MessageImagesSchema.optional() });

export const ApprovalAnswerSchema = z.strictObject({
  requestId: z.uuid({ error: 'The approval request id is not valid.' }),
  approved: z.boolean({ error: 'An approval answer is true or false.' }),
  /**
   * "Always allow": approve, and save the rule the request offered. Main
   * confirms it in its own dialog first; the page cannot name the rule.
   */
  alwaysAllow: z.literal(true, { error: 'alwaysAllow is true or absent.' }).optional(),
  /** An approval of the person's review of a file change (hunks rejected, their own text); main works out what to write. */
  review: ReviewAnswerSchema.optional(),
});
export type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>;

/**
 * `accepted`: the answer was used. `open`: the ask is still waiting for an
 * answer (the person did not confirm saving the rule), so its dialog stays.
 */
export const ApprovalAnswerResultSchema = z.object({
  accepted: z.boolean(),
  open: z.boolean().optional(),
  /** What happened, for the person (a saved rule, or why the answer was not used). */
  message: z.string().optional(),
});
export type ApprovalAnswerResult = z.infer<typeof ApprovalAnswerResultSchema>;

/**
 * The person picks a mode. A loosening is confirmed by main itself, in its
 * own dialog, which no page can answer: nothing a page adds can stand in for
 * that yes, so the request names the mode and nothing else.
 */
export const ModeChangeInputSchema = z.strictObject({
  mode: z.string({ error: 'The mode must be text.' }).max(64, `Unknown permission mode. Use ${MODE_LIST}.`),
});
export type ModeChangeInput = z.infer<typeof ModeChangeInputSchema>;

export const ModeChangeResultSchema = z.object({
  /** `unchanged`: already in that mode, or the person did not confirm a loosening; `error`: refused, `message` says why. */
  status: z.enum(['changed', 'unchanged', 'error']),
  /** The session's mode after the request. */
  mode: PermissionModeSchema,
  message: z.string(),
});
export type ModeChangeResult = z.infer<typeof ModeChangeResultSchema>;

/** A display-only ask for the owning window. The renderer answers `{requestId, approved}` and nothing else. */
export const ApprovalRequestSchema = z.object({
  requestId: z.uuid(),
  sessionId: SessionIdSchema,
  callId: z.string(),
  toolName: z.string(),
  confirmation: ConfirmationSchema,
  /** This ask's place among the asks of one model response, when there are several: "1 of 3". */
  position: z.object({ index: z.number().int().positive(), total: z.number().int().positive() }).optional(),
  /** The rule "Always allow" would save for the project (`allow bash npm test`), shown before it is saved; absent when none is offered. */
  alwaysAllow: z.string().optional(),
  /** A file change the person may review by hunk and rewrite before approving. */
  review: ReviewSubjectSchema.optional(),
  /** Set when the target changed on disk while the ask is open (the ask is sent again): why approving would write nothing. */
  targetChanged: z.string().optional(),
});
export type ApprovalRequestView = z.infer<typeof ApprovalRequestSchema>;

export const ApprovalClosedSchema = z.object({
  requestId: z.uuid(),
  /** Why the dialog must close without an answer (e.g. the turn was stopped). */
  reason: z.string(),
});

export const SessionEventSchema = z.object({ sessionId: SessionIdSchema, event: TurnEventSchema });
