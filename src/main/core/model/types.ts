// The model contract the agent loop programs against. It mirrors the parts of
// the Responses API that Mino uses, in our own names, so the loop and the
// session log never depend on the SDK's types.

/** One item of model input or output, as saved in the session log. */
export type HistoryItem =
  | { type: 'message'; role: 'user' | 'assistant'; text: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/** A tool as the model sees it; `parameters` is a JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  instructions: string;
  input: HistoryItem[];
  tools: ToolSpec[];
  signal?: AbortSignal;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Assistant messages and function calls, in the order the model produced them. */
export interface ModelResponse {
  id: string;
  output: HistoryItem[];
  usage?: ModelUsage;
}

export type ModelStreamEvent = { type: 'text_delta'; delta: string };

export type ModelErrorKind = 'http' | 'failed' | 'incomplete' | 'stream' | 'aborted' | 'config' | 'unpaired_history';

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
