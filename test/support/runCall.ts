// Runs one tool call exactly as the loop does (validate, decide, inspect, ask
// or record, save, execute) through a real Conversation against the mock model
// service, and returns what happened beside the verdict decide() gave it, so a
// test can hold the loop to the decision instead of restating the policy.
import type { PermissionMode } from '../../src/shared/domain';
import { Conversation } from '../../src/main/core/agent/conversation';
import { ToolRegistry, parseArguments } from '../../src/main/core/agent/toolRegistry';
import { decide, factsFor, type Verdict } from '../../src/main/core/policy/decide';
import type { ApprovalRequest } from '../../src/main/core/agent/approver';
import type { TurnEvent } from '../../src/main/core/agent/events';
import { eventRecorder, recordingApprover, type AgentFixture } from './agentFixture';

export interface CallRun {
  /** What decide() says of this call, or null when it never reaches the decision (unknown tool, invalid arguments). */
  verdict: Verdict | null;
  events: TurnEvent[];
  asks: ApprovalRequest[];
  /** The call's paired result, as saved and sent to the model. */
  result: Extract<TurnEvent, { type: 'tool_result' }>;
  /** The record shown for the call, if any: an ask or an "allowed without confirmation" record. */
  confirmation: Extract<TurnEvent, { type: 'tool_confirmation' }> | undefined;
}

export async function runCallAsLoop(
  fx: AgentFixture,
  call: { name: string; arguments: Record<string, unknown> },
  options: { mode: PermissionMode; approve?: boolean },
): Promise<CallRun> {
  const external = fx.deps.externalTools ? await fx.deps.externalTools(fx.project) : { tools: [], problems: [] };
  const tool = new ToolRegistry([...fx.deps.builtinTools, ...external.tools]).get(call.name);
  const parsed = parseArguments(JSON.stringify(call.arguments));
  const validation = tool && parsed.ok ? tool.validate(parsed.value) : null;
  const verdict = tool && validation?.ok ? decide(factsFor(tool, validation.args), options.mode) : null;

  const callId = `call_${Math.random().toString(16).slice(2)}`;
  fx.server.enqueue({ calls: [{ ...call, call_id: callId }] }, { text: 'Done.' });
  const recorder = eventRecorder();
  const approver = recordingApprover(() => options.approve ?? false);
  const conversation = await Conversation.start(fx.deps, fx.project);
  try {
    await conversation.ask(`Please run ${call.name}.`, { mode: options.mode, approver, onEvent: recorder.onEvent });
  } finally {
    await conversation.close();
  }
  const result = recorder.of('tool_result').find((event) => event.callId === callId);
  if (!result) throw new Error(`The loop saved no result for ${call.name}; events: ${JSON.stringify(recorder.events)}`);
  const confirmation = recorder.of('tool_confirmation').find((event) => event.callId === callId);
  return { verdict, events: recorder.events, asks: approver.asks, result, confirmation };
}
