// What a running turn reports to its front end (CLI printer, desktop window).
// Display-only: nothing here feeds back into a decision.
import type { Confirmation, Decision, PermissionMode, ToolStatus, TurnEndStatus } from '../../../shared/domain';

export type TurnEvent =
  | { type: 'user_message'; text: string }
  /** A model request is starting (the front end may open an "Assistant>" block). */
  | { type: 'assistant_start'; request: number }
  | { type: 'assistant_delta'; delta: string }
  /** The complete text of one assistant message, once its response is saved. */
  | { type: 'assistant_text'; text: string }
  | { type: 'tool_call'; callId: string; name: string; arguments: string; decision: Decision | null; mode: PermissionMode }
  /**
   * The fields of a call about to run: an ask (`asked: true`, followed by an
   * `approval` event) or a mode-allowed record (`asked: false`).
   */
  | { type: 'tool_confirmation'; callId: string; name: string; confirmation: Confirmation; asked: boolean; mode: PermissionMode }
  | { type: 'approval'; callId: string; approved: boolean }
  | { type: 'tool_result'; callId: string; name: string; status: ToolStatus; output: string }
  /** Something the person should know that is not part of the conversation (e.g. an MCP server failed). */
  | { type: 'notice'; message: string }
  | { type: 'turn_end'; status: TurnEndStatus; message?: string };

export type TurnEventListener = (event: TurnEvent) => void;
