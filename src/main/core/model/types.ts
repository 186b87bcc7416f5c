// The model contract the agent loop programs against. It mirrors the parts of
// the Responses API that Mino uses, in our own names, so the loop and the
// session log never depend on the SDK's types.
import type { ImageRef } from '../../../shared/images';

/**
 * A reasoning model's reasoning, kept exactly as the service sent it (its
 * encrypted content included) and sent back in place, so the model keeps its
 * own reasoning between tool calls although nothing is stored server-side.
 */
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string | null;
  /** Any other field the service sent, kept so the item goes back byte for byte. */
  [field: string]: unknown;
}

/**
 * The summary a compaction put in place of earlier history. Never saved inside
 * a response: it comes from a `compaction` record, and goes to the model as a
 * user-role message marked as a summary. `author` says who wrote its text.
 */
export interface SummaryItem {
  type: 'summary';
  text: string;
  author: 'model' | 'person';
}

/** An image a person attached to a message: its bytes' SHA-256 (they are kept in ~/.mino/images) and its type. */
export type { ImageRef } from '../../../shared/images';

/** The base64 bytes of the images a request's history refers to, by digest; an image not in it is no longer kept. */
export type ImageData = ReadonlyMap<string, string>;

/** One item of model input or output, as saved in the session log. `images`: what a person's message carried. */
export type HistoryItem =
  | { type: 'message'; role: 'user' | 'assistant'; text: string; images?: ImageRef[] }
  /** A message the person sent to a running turn, between its tool results and its next request: part of that turn, never a turn's start. */
  | { type: 'message'; role: 'user'; text: string; steered: true; images?: never }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | ReasoningItem
  | SummaryItem;

/** What a model response can contain: anything but a summary. */
export type OutputItem = Exclude<HistoryItem, SummaryItem>;

/** A tool as the model sees it; `parameters` is a JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  instructions: string;
  input: HistoryItem[];
  /** Empty for a request that must not act (the compaction summarizer): no tools are offered at all. */
  tools: ToolSpec[];
  signal?: AbortSignal;
  /** Sent as `prompt_cache_key`, so the service can reuse the cached prefix of one session's requests. */
  cacheKey?: string;
  /** Ask for reasoning items (with encrypted content) and a reasoning summary. */
  reasoning?: { effort?: ReasoningEffort };
  /** The bytes of the images `input` refers to (images/imageInputs.ts); without it every image is sent as missing. */
  imageData?: ImageData;
}

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** Token counts one response reported. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** Of the input, how much the service read from its prompt cache. */
  cachedInputTokens?: number;
  /** Of the output, how much was reasoning. */
  reasoningTokens?: number;
}

/** Assistant messages, reasoning items and function calls, in the order the model produced them. */
export interface ModelResponse {
  id: string;
  output: OutputItem[];
  usage?: ModelUsage;
}

export type ModelStreamEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string }
  /** The request failed before its answer began and is sent again after `delayMs`; `message` says why and when. */
  | { type: 'retry'; message: string; attempt: number; attempts: number; delayMs: number };

/**
 * `context_length`: the service refused the request for exceeding the model's
 * context window. `reasoning_unsupported`: it refused the reasoning fields.
 * `answer_too_large`: the answer passed the most Mino accepts in one response
 * (model/limits.ts) and was stopped there.
 */
export type ModelErrorKind =
  | 'http'
  | 'failed'
  | 'incomplete'
  | 'stream'
  | 'aborted'
  | 'config'
  | 'unpaired_history'
  | 'context_length'
  | 'reasoning_unsupported'
  | 'answer_too_large';

/** Every failure of a model request. The message is written for the person using Mino. */
export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  /** HTTP status, when the service answered with one. */
  readonly status?: number;

  constructor(kind: ModelErrorKind, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.kind = kind;
    if (options?.status !== undefined) this.status = options.status;
  }
}

export interface ModelClient {
  respond(req: ModelRequest, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResponse>;
}
