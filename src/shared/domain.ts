// Domain types shared by main, preload, renderer and CLI. Imports only zod.
import { z } from 'zod';

/**
 * Permission modes, in the order a person is offered them (plan, the strictest,
 * last, so every existing choice keeps its place); what each allows is its row
 * in core/policy/modeTable.ts. Held in memory per session; never saved.
 */
export const PERMISSION_MODES = ['manual', 'accept-edits', 'auto', 'bypass', 'plan'] as const;
export const PermissionModeSchema = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;
/** "manual, accept-edits, auto, bypass or plan", for messages and usage text. */
export const MODE_LIST = `${PERMISSION_MODES.slice(0, -1).join(', ')} or ${PERMISSION_MODES[PERMISSION_MODES.length - 1]}`;

/** The one decision the program makes for every live tool call. */
export const DECISIONS = ['allow', 'ask', 'deny'] as const;
export const DecisionSchema = z.enum(DECISIONS);
export type Decision = z.infer<typeof DecisionSchema>;

/**
 * What a tool does, as far as the decision is concerned. Set by the program
 * (each tool declares it), never by the model. Each kind has a cell in every
 * mode's row (core/policy/modeTable.ts). `plan_update` (update_plan) records
 * the model's plan for the person to follow and changes nothing on disk.
 */
export const TOOL_KINDS = ['restricted_read', 'file_write', 'bash', 'mcp', 'plan_update'] as const;
export const ToolKindSchema = z.enum(TOOL_KINDS);
export type ToolKind = z.infer<typeof ToolKindSchema>;

/** What a window needs to show a tool's card, sent with each call so the renderer never knows tool names. */
export const ToolDisplaySchema = z.object({
  kind: ToolKindSchema,
  /** Its output starts folded (reads: long, and nobody had to approve them). */
  foldsOutput: z.boolean(),
});
export type ToolDisplay = z.infer<typeof ToolDisplaySchema>;

/** Status of a paired tool result, as sent to the model and saved in the log. */
export const TOOL_STATUSES = ['completed', 'denied', 'failed', 'invalid_arguments', 'unknown', 'error'] as const;
export const ToolStatusSchema = z.enum(TOOL_STATUSES);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

export const ToolResultSchema = z.object({
  status: ToolStatusSchema,
  output: z.string(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** One `Label: "value"` line of a confirmation. */
export const ConfirmationFieldSchema = z.object({
  label: z.string(),
  value: z.string(),
});
export type ConfirmationField = z.infer<typeof ConfirmationFieldSchema>;

/** A rule the person wrote (core/rules), as a decision names it: its id and its text. */
export const RuleRefSchema = z.object({ id: z.string(), text: z.string() });
export type RuleRef = z.infer<typeof RuleRefSchema>;

/**
 * What a person is shown before a call runs (an ask) or as it runs (a
 * mode-allowed record). Built by the tool's inspection from live state.
 */
export const ConfirmationSchema = z.object({
  tool: z.string(),
  fields: z.array(ConfirmationFieldSchema),
  /** Shown verbatim in full: a write's content preview (capped by the tool), an external call's complete arguments. */
  preview: z.string().optional(),
  /** Unified diff of old and new content (writes and edits). */
  diff: z.string().optional(),
  /** The tool's warning line, e.g. "Runs with your account permissions; this is not a sandbox." */
  warning: z.string().optional(),
  /**
   * How strongly the warning is drawn: `neutral` for a routine ask (a file
   * change inside the project, a sandboxed command), `strong` for what
   * deserves it (a command with your full rights, an MCP call to a remote
   * host). Absent (as in older records): strong.
   */
  warningWeight: z.enum(['neutral', 'strong']).optional(),
  /**
   * Set by the program when the fields, preview or diff hold invisible or
   * bidirectional characters: which, where, and that what is displayed may
   * differ from what is written (see shared/hiddenCharacters.ts).
   */
  hiddenCharacterWarning: z.string().optional(),
  /**
   * The person's rules that decided this call (it asks, or runs without
   * asking, because of them), set by the program; absent when the mode
   * decided. Optional, so records saved before rules existed still load.
   */
  rules: z.array(RuleRefSchema).optional(),
});
export type Confirmation = z.infer<typeof ConfirmationSchema>;

/** The one rule for a session id, in words and as a pattern: 16 random bytes in lowercase hex. */
export const SESSION_ID_RULE = 'a session id is 32 lowercase hex characters';
export const SESSION_ID_PATTERN = /^[0-9a-f]{32}$/;
export const SessionIdSchema = z.string().regex(SESSION_ID_PATTERN, SESSION_ID_RULE);
export type SessionId = z.infer<typeof SessionIdSchema>;

export const SessionSummarySchema = z.object({
  id: SessionIdSchema,
  projectDir: z.string(),
  firstPrompt: z.string(),
  /** The title the person gave it; null until they rename it (then the first prompt, shortened, names it). */
  title: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** A fork (Edit and resend): the session it continues, by id and by what that one is called now (null when it is gone). */
  forkedFrom: z.object({ id: SessionIdSchema, label: z.string().nullable() }).optional(),
  /** Open in another window of this app now (the desktop's list says so; a saved log never does). */
  openElsewhere: z.boolean().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** How a turn ended. */
export const TURN_END_STATUSES = ['completed', 'failed', 'aborted', 'limit'] as const;
export type TurnEndStatus = (typeof TURN_END_STATUSES)[number];
