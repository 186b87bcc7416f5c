// The records of a session log: one JSON object per line, parsed with these
// schemas when a session loads. The schemas are the file format.
import { z } from 'zod';
import { ConfirmationSchema, PermissionModeSchema, SessionIdSchema, ToolStatusSchema, TURN_END_STATUSES } from '../../../shared/domain';
import type { OutputItem } from '../model/types';
import { SessionTitleSchema } from '../../../shared/sessionTitle';
import { ImageRefSchema, MAX_IMAGES_PER_MESSAGE } from '../../../shared/images';

export const SESSION_FORMAT_VERSION = 1;

/** Loose: every field the service sent is kept, so the item goes back to it byte for byte. */
const ReasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: z.string(),
  summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() })),
  encrypted_content: z.string().nullable().optional(),
});

/** What a model response may hold. (A summary item never comes from the model: it is rebuilt from a compaction record.) */
export const HistoryItemSchema: z.ZodType<OutputItem> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), role: z.enum(['user', 'assistant']), text: z.string() }),
  z.object({ type: z.literal('function_call'), call_id: z.string().min(1), name: z.string(), arguments: z.string() }),
  z.object({ type: z.literal('function_call_output'), call_id: z.string().min(1), output: z.string() }),
  ReasoningItemSchema,
]);

const tokens = z.number().int().nonnegative();

/** What the service reported for one response. */
export const UsageSchema = z.object({
  inputTokens: tokens,
  outputTokens: tokens,
  cachedInputTokens: tokens.optional(),
  reasoningTokens: tokens.optional(),
});

/** A record's place in the log: 0 is the header, 1 the first record after it (line number minus one). */
const position = z.number().int().positive();

const at = z.string().min(1);

/** A temporary file a call may create: its project path and its directory's identity ("dev:ino") when it was chosen. */
export const TemporaryFileRecordSchema = z.object({ path: z.string().min(1), dir: z.string().min(1) });
export type TemporaryFileRecord = z.infer<typeof TemporaryFileRecordSchema>;

export const SessionHeaderRecordSchema = z.object({
  type: z.literal('session'),
  version: z.literal(SESSION_FORMAT_VERSION),
  id: SessionIdSchema,
  projectDir: z.string().min(1),
  createdAt: at,
  /**
   * A fork (Edit and resend): the session it continues and the position of the
   * person's message it replaces. Its records 1 to `position - 1` are copies of
   * that session's; the original is never changed.
   */
  forkedFrom: z.object({ session: SessionIdSchema, position }).optional(),
});

const permissionBits = z.number().int().nonnegative();

/**
 * What a path held before or after a change: nothing, a file (its content
 * kept by digest), a directory, or a symbolic link (bash only: a command's
 * changes are captured whatever they are).
 */
export const ChangeImageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('absent') }),
  /**
   * `mode` absent: a file a file tool created, whose permission bits the umask
   * decided. `binary`: the content is not UTF-8 text or holds a NUL byte, so it
   * is shown as "binary" rather than as a diff (the digest is of its bytes, as
   * for text).
   */
  z.object({ kind: z.literal('file'), sha256: z.string().regex(/^[0-9a-f]{64}$/), mode: permissionBits.optional(), binary: z.literal(true).optional() }),
  /** `mode`: set where a command's change was captured, so a change of a folder's permission bits can be undone too. */
  z.object({ kind: z.literal('directory'), mode: permissionBits.optional() }),
  z.object({ kind: z.literal('symlink'), target: z.string().min(1) }),
]);
export type ChangeImage = z.infer<typeof ChangeImageSchema>;

/** Undo restores `before` of a turn's changes; redo restores `after` of changes an undo restored. */
export const REVERSAL_ACTIONS = ['undo', 'redo'] as const;

export const SessionRecordSchema = z.discriminatedUnion('type', [
  SessionHeaderRecordSchema,
  /** The person's message; `images`: what it carried, by digest (kept in ~/.mino/images; absent in older logs and when none). */
  z.object({ type: z.literal('user'), text: z.string(), images: z.array(ImageRefSchema).min(1).max(MAX_IMAGES_PER_MESSAGE).optional(), at }),
  /**
   * A message the person sent while a turn ran ("Send now"), delivered before
   * that turn's next request: after the tool results of the response before
   * it, in the model's history as a user message. Part of the running turn,
   * never the start of one.
   */
  z.object({ type: z.literal('steer'), text: z.string(), at }),
  /** A model response, saved before any decision acts on it; `model`: the model that answered (absent in older logs). */
  z.object({ type: z.literal('response'), responseId: z.string(), output: z.array(HistoryItemSchema), usage: UsageSchema.optional(), model: z.string().optional(), at }),
  /**
   * The service and model the session's turns use from here on: saved before
   * the first turn, and again whenever the person chooses another. The last
   * one is the session's own, what it continues with. Not part of the model's history.
   */
  z.object({ type: z.literal('model'), service: z.string().min(1), model: z.string().min(1), at }),
  /**
   * What the person was shown for a call, saved before they are asked (`asked`)
   * or before a mode-allowed call runs: display only, so a resumed session's
   * card shows the fields and diff it showed live. Never part of the model's
   * history and never re-inspected; whether an ask was approved is whether
   * the call then started.
   */
  z.object({
    type: z.literal('confirmation'),
    call_id: z.string().min(1),
    name: z.string(),
    asked: z.boolean(),
    mode: PermissionModeSchema,
    confirmation: ConfirmationSchema,
    at,
  }),
  /** Saved before the tool runs; a start without a result means the outcome is unknown. */
  z.object({
    type: z.literal('tool_start'),
    call_id: z.string().min(1),
    name: z.string(),
    arguments: z.string(),
    /** Temporary files the call may create, named before it runs, so a crash's debris can be found and removed. */
    temp_files: z.array(TemporaryFileRecordSchema).optional(),
    /** bash: the MINO_COMMAND_ID every process of the command carries, so survivors of a crash can be found. */
    process_mark: z.string().min(1).max(100).optional(),
    at,
  }),
  z.object({
    type: z.literal('tool_result'),
    call_id: z.string().min(1),
    name: z.string(),
    status: ToolStatusSchema,
    output: z.string(),
    at,
  }),
  /** The person has seen these unknown results; the session may take another question. */
  z.object({ type: z.literal('acknowledge'), call_ids: z.array(z.string().min(1)), at }),
  /** /clear: same session id, the model history is empty from here on. */
  z.object({ type: z.literal('clear'), at }),
  /** The person named the session; the last one names it. Not part of the model's history. */
  z.object({ type: z.literal('title'), title: SessionTitleSchema, at }),
  z.object({ type: z.literal('turn_end'), status: z.enum(TURN_END_STATUSES), message: z.string().optional(), at }),
  /**
   * A file tool is about to change `path` (saved under the file's lock, after
   * the recheck, before the write): what it holds now and what it will hold.
   * Or a sandboxed bash command changed it (saved after the command, before
   * its result): what it held before the command and holds after it.
   * File contents live in ~/.mino/checkpoints, named by their digest.
   */
  z.object({
    type: z.literal('change'),
    change_id: z.string().min(1),
    call_id: z.string().min(1),
    path: z.string().min(1),
    before: ChangeImageSchema,
    after: ChangeImageSchema,
    at,
  }),
  /**
   * Whether the changes a bash call made were captured (saved after its
   * `change` records, before its result): `captured`, every change is in the
   * log; `partial`, some could not be (`reason` says which and why); `not_captured`,
   * none could be (outside the sandbox, a project too large to watch, ...).
   * `captured` is saved only by the first command of each opening of the log:
   * a later bash call without a record of its own, that ended, was captured
   * whole (checkpoints/turnChanges.ts). A bash call before any such record
   * (an older log) is one whose changes are not tracked.
   */
  z.object({
    type: z.literal('capture'),
    call_id: z.string().min(1),
    outcome: z.enum(['captured', 'partial', 'not_captured']),
    reason: z.string().optional(),
    /** Paths .gitignore ignores that the command changed: counted, never kept. */
    ignored: z.number().int().nonnegative().optional(),
    at,
  }),
  /** The person began to undo or redo these changes, in this order; saved before any file is touched. */
  z.object({
    type: z.literal('reversal_start'),
    reversal_id: z.string().min(1),
    action: z.enum(REVERSAL_ACTIONS),
    change_ids: z.array(z.string().min(1)),
    at,
  }),
  /** One change of a reversal, done or left alone (with why); saved after the file was handled. */
  z.object({
    type: z.literal('reversal_step'),
    reversal_id: z.string().min(1),
    change_id: z.string().min(1),
    outcome: z.enum(['restored', 'skipped']),
    reason: z.string().optional(),
    at,
  }),
  z.object({ type: z.literal('reversal_end'), reversal_id: z.string().min(1), at }),
  /**
   * A compaction: from here on the model sees `summary` in place of the records
   * from `summarized.from` up to (not including) `keptFrom`, followed by every
   * item from `keptFrom` on. Older records stay in the log. A summary the
   * person edited is a new compaction record with `author: "person"` and the
   * same positions; the last compaction record is the one in force.
   */
  z.object({
    type: z.literal('compaction'),
    trigger: z.enum(['auto', 'manual', 'edit']),
    author: z.enum(['model', 'person']),
    summary: z.string().min(1),
    summarized: z.object({ from: position, to: position }),
    keptFrom: position,
    tokensBefore: tokens,
    tokensAfter: tokens,
    /** How tokens were counted: the tokenizer package's name, or "estimate". */
    counter: z.string(),
    at,
  }),
]);

export type SessionRecord = z.infer<typeof SessionRecordSchema>;
export type SessionHeaderRecord = z.infer<typeof SessionHeaderRecordSchema>;

type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;
/** A record before its time is stamped; `append` stamps `at` when it is missing. */
export type SessionRecordWithoutAt = WithoutAt<Exclude<SessionRecord, SessionHeaderRecord>>;
