// The pipeline of one live tool call: validate, decide, inspect, ask or
// record, save the start, execute (which rechecks), save the result. Every
// record is saved before what it describes acts, and every call ends with a
// saved result.
import type { Confirmation, Decision, PermissionMode, ToolResult } from '../../../shared/domain';
import { withThousands } from '../../../shared/formatNumber';
import type { Plan } from '../../../shared/sessions';
import { parseMcpToolName } from '../mcp/toolName';
import type { HistoryItem, OutputItem } from '../model/types';
import { decide, decideWithCause, factsFor, type Verdict } from '../policy/decide';
import { protectGlobsOf } from '../rules/judge';
import { callLedger, callRules, commandOf, lastReadCallRules, offeredRule, ruleInputsFor, ruleInputsNow, type CallLedger } from '../rules/callRules';
import type { SessionLog } from '../sessions/sessionLog';
import { withHiddenCharacterWarning } from '../tools/hiddenCharacterCheck';
import { displayOf, type AnyTool, type ToolContext } from '../tools/types';
import { MAX_WRITE_BYTES } from '../tools/writeFile';
import { askApproval, type AskPosition } from './approver';
import { changedWhileAsked, everythingRejected, revisionNote } from './review';
import type { TurnEvent } from './events';
import type { TurnOptions } from './runTurn';
import { parseArguments } from './toolRegistry';

export type FunctionCall = Extract<HistoryItem, { type: 'function_call' }>;

/** What running a call takes from its turn. */
export type CallOptions = Pick<TurnOptions, 'log' | 'tools' | 'context' | 'mode' | 'approver' | 'preImages'>;

type Emit = (event: TurnEvent) => void;

/**
 * The most argument text (UTF-8 bytes) one tool call may carry. A call's
 * arguments are saved in the session log and sent back to the model with
 * every later request, so one call of 20 MB would weigh on the whole session;
 * no tool needs more than this (write_file takes at most 256 KiB of content).
 */
export const MAX_CALL_ARGUMENT_BYTES = 1024 * 1024;

/** The size of `call`'s arguments when they are over the cap; null when they are within it. */
function oversizedArguments(call: FunctionCall): number | null {
  // At most 3 bytes per UTF-16 unit: most calls need no count at all.
  if (call.arguments.length * 3 <= MAX_CALL_ARGUMENT_BYTES) return null;
  const bytes = Buffer.byteLength(call.arguments, 'utf8');
  return bytes > MAX_CALL_ARGUMENT_BYTES ? bytes : null;
}

/**
 * The call as the session keeps it (in its log, and in what later requests
 * send): arguments over the cap give way to a short note of their size,
 * itself a JSON object, as arguments are. The call is refused (runCall).
 */
export function keptCall(call: FunctionCall): FunctionCall {
  const bytes = oversizedArguments(call);
  if (bytes === null) return call;
  const note = `${withThousands(bytes)} bytes of arguments, over the 1 MiB one tool call may carry: not kept, and the call was not run.`;
  return { ...call, arguments: JSON.stringify({ omitted: note }) };
}

/** A response's output as the session keeps it: every call through keptCall. */
export function keptOutput(output: readonly OutputItem[]): OutputItem[] {
  return output.map((item) => (item.type === 'function_call' ? keptCall(item) : item));
}

function oversizedRefusal(bytes: number): ToolResult {
  return {
    status: 'invalid_arguments',
    output:
      `Not run: the arguments of this call are ${withThousands(bytes)} bytes, over the 1 MiB (${withThousands(MAX_CALL_ARGUMENT_BYTES)} bytes) ` +
      'one tool call may carry; the session keeps only a note of their size. Send less in each call: split a large new file into ' +
      `several smaller files (write_file takes at most ${MAX_WRITE_BYTES / 1024} KiB of content), change part of an existing file with ` +
      'edit_file, or generate long content with a short bash command (a script) instead of writing it out.',
  };
}

function modeNow(options: Pick<TurnOptions, 'mode'>): PermissionMode {
  return typeof options.mode === 'function' ? options.mode() : options.mode;
}

/**
 * Which calls of one response will ask, numbered, so a dialog can say "1 of 3".
 * The same pure steps the calls will take (validate, decide), never the
 * inspection; a call whose inspection then fails simply never asks, and the
 * others keep their numbers. Empty when at most one call asks.
 */
export function askPositions(calls: readonly FunctionCall[], options: Pick<TurnOptions, 'tools' | 'mode' | 'context'>): Map<string, AskPosition> {
  const mode = modeNow(options);
  const asking = calls.filter((call) => {
    const tool = options.tools.get(call.name);
    if (!tool || oversizedArguments(call) !== null) return false;
    const parsed = parseArguments(call.arguments);
    const validation = parsed.ok ? tool.validate(parsed.value) : parsed;
    if (!validation.ok) return false;
    // The rules as last read, and no command's reading (the parser may still load): numbering only.
    const inputs = ruleInputsNow(lastReadCallRules(options.context), call.name, mcpPairOf(tool.kind, call.name).mcp);
    return decide(factsFor(tool, validation.args), mode, inputs).decision === 'ask';
  });
  if (asking.length < 2) return new Map();
  return new Map(asking.map((call, index) => [call.call_id, { index: index + 1, total: asking.length }]));
}

/** Runs one call through the whole pipeline; returns its result after it is saved. */
export async function runCall(call: FunctionCall, options: CallOptions, emit: Emit, position?: AskPosition): Promise<ToolResult> {
  const { log, context } = options;
  const mode = modeNow(options);
  const finish = (result: ToolResult) => saveResult(log, call, result, emit);
  // What a front end shows is what the session keeps: never megabytes of arguments.
  const shownArguments = keptCall(call).arguments;
  const told = (decision: Decision | null, tool: AnyTool | undefined) =>
    emit({ type: 'tool_call', callId: call.call_id, name: call.name, arguments: shownArguments, decision, mode, tool: tool ? displayOf(tool) : null });

  const decided = await decideCall(call, options, mode);
  if ('result' in decided) {
    told(decided.decision, decided.tool);
    return finish(decided.result);
  }
  const { tool, args, verdict, inspection, ledger } = decided;
  told(verdict.decision, tool);
  if (verdict.decision === 'deny') return finish({ status: 'denied', output: verdict.reason });
  const rules = verdict.rules ? { rules: verdict.rules } : {};
  const confirmation = withHiddenCharacterWarning({
    ...(verdict.decision === decided.first.decision ? inspection.confirmation : withNoSandboxNote(inspection.confirmation, mode, decided.first)),
    ...rules,
  });

  // What the person sees is saved first, so a resumed session's card shows it as it was shown.
  const shown = async (asked: boolean) => {
    await log.append({ type: 'confirmation', call_id: call.call_id, name: call.name, asked, mode, confirmation });
    emit({ type: 'tool_confirmation', callId: call.call_id, name: call.name, confirmation, asked, mode });
  };
  if (verdict.decision === 'ask') {
    await shown(true);
    const alwaysAllow = await offeredRule(
      { kind: tool.kind, args, outside: factsFor(tool, args).outsideSandbox === true || inspection.noSandbox === true, ...mcpPairOf(tool.kind, call.name), askedByRules: verdict.rules !== undefined },
      context.projectDir,
    );
    const request = {
      callId: call.call_id,
      toolName: call.name,
      confirmation,
      ...(position ? { position } : {}),
      ...(alwaysAllow ? { alwaysAllow } : {}),
      ...(inspection.review ? { review: inspection.review } : {}),
      ...(inspection.watch ? { target: inspection.watch } : {}),
    };
    const answer = await askApproval(options.approver, request, context.signal);
    // The answer is in the ledger before the call runs, as the decision was.
    await ledger.answered(answer);
    emit({ type: 'approval', callId: call.call_id, approved: answer.approved });
    if (!answer.approved) return finish(answer.targetChanged && inspection.watch ? changedWhileAsked(inspection.watch.path) : { status: 'denied', output: tool.denialMessage });
    if (answer.revision && inspection.review) {
      // The person's version replaces the proposal; the model is told exactly what was written.
      const { review } = inspection;
      const revision = answer.revision;
      if (revision.content === review.before || !tool.revise) return finish(everythingRejected(review.path));
      const state = tool.revise(args, inspection.state, { content: revision.content, sha256: revision.sha256 });
      const written = await execute(call, tool, args, state, { ...options, context: { ...context, protectGlobs: decided.protectGlobs } }, emit);
      return finish(written.status === 'completed' ? { ...written, output: `${written.output}\n${revisionNote(review, revision)}` } : written);
    }
  } else if (verdict.shown) {
    // Allowed by the mode or a rule, not by a person: still shown, never silent (the decision says which allows are).
    await shown(false);
  }
  const result = await finish(await execute(call, tool, args, inspection.state, { ...options, context: { ...context, protectGlobs: decided.protectGlobs } }, emit));
  // The plan a front end follows is the arguments the tool validated; the log keeps the call as any call.
  if (tool.kind === 'plan_update' && result.status === 'completed') emit({ type: 'plan', callId: call.call_id, plan: args as Plan });
  return result;
}

type Inspected = Extract<Awaited<ReturnType<AnyTool['inspect']>>, { ok: true }>;

/** A call refused before it could run (`decision` null: it never reached the decision), or one decided, inspected and in the ledger. */
type DecidedCall =
  | { result: ToolResult; decision: Decision | null; tool: AnyTool | undefined }
  | { tool: AnyTool; args: unknown; first: Verdict; verdict: Verdict; inspection: Inspected; ledger: CallLedger; protectGlobs: string[] };

/**
 * Validates, decides (with the person's rules, read now so a rule added in
 * another window applies), inspects and decides again once the inspection
 * settled how the call runs; the final verdict is in the ledger before this returns.
 */
async function decideCall(call: FunctionCall, options: CallOptions, mode: PermissionMode): Promise<DecidedCall> {
  const { tools, context } = options;
  const rules = await callRules(context);
  // A tool the person switched off is not offered, and a call to it is refused as unknown.
  const off = rules.ok ? rules.off : new Set<string>();
  const tool = off.has(call.name) ? undefined : tools.get(call.name);
  const oversized = oversizedArguments(call);
  if (oversized !== null) return { result: oversizedRefusal(oversized), decision: null, tool };
  if (!tool) {
    const names = tools.names().filter((name) => !off.has(name));
    return { result: { status: 'invalid_arguments', output: `There is no tool named ${call.name}. Use one of: ${names.join(', ')}.` }, decision: null, tool };
  }
  const parsed = parseArguments(call.arguments);
  const validation = parsed.ok ? tool.validate(parsed.value) : parsed;
  if (!validation.ok) return { result: { status: 'invalid_arguments', output: validation.reason }, decision: null, tool };
  const args = validation.args;
  const facts = factsFor(tool, args);
  const target = facts.path ?? commandOf(tool.kind, args);
  const ledger = callLedger(context, { session: options.log.id, callId: call.call_id, tool: call.name, target });
  if (!rules.ok) {
    await ledger.decided({ verdict: { decision: 'deny' }, by: { kind: 'policy' } });
    return { result: { status: 'denied', output: rules.reason }, decision: 'deny', tool };
  }
  const inputs = await ruleInputsFor(rules.rules, { toolName: call.name, kind: tool.kind, args, ...mcpPairOf(tool.kind, call.name) }, context.projectDir);
  // Decided before anything is read, so a refused call is never inspected; decided again once the inspection
  // settled how the call runs (a command with no sandbox available), which can only make it stricter.
  const firstDecided = decideWithCause(facts, mode, inputs);
  const first = firstDecided.verdict;
  if (first.decision === 'deny') {
    await ledger.decided(firstDecided);
    return { result: { status: 'denied', output: first.reason }, decision: first.decision, tool };
  }
  let inspection;
  try {
    inspection = await tool.inspect(args, context);
  } catch (error) {
    return { result: { status: 'invalid_arguments', output: `Could not inspect the target: ${errorText(error)}` }, decision: first.decision, tool };
  }
  if (!inspection.ok) return { result: inspection.result, decision: first.decision, tool };
  const decided = inspection.noSandbox ? decideWithCause(factsFor(tool, args, { noSandbox: true }), mode, inputs) : firstDecided;
  await ledger.decided(decided);
  return { tool, args, first, verdict: decided.verdict, inspection, ledger, protectGlobs: protectGlobsOf(rules.rules) };
}

/** Says why a call the mode (or the person's allow rule) would have run without asking asks after all: it would run outside the sandbox. */
function withNoSandboxNote(confirmation: Confirmation, mode: PermissionMode, first: Verdict): Confirmation {
  const note = first.rules
    ? `Your rule ${first.rules.map((rule) => `${rule.id} "${rule.text}"`).join(', ')} allows this command only in the sandbox, and no sandbox is available now (see Sandbox above), so it asks. An "allow bash-outside" rule allows it outside the sandbox.`
    : `In ${mode} mode, Bash commands run without asking only in the sandbox, and no sandbox is available now (see Sandbox above), so this command asks.`;
  return { ...confirmation, warning: confirmation.warning ? `${note} ${confirmation.warning}` : note };
}

/** Saves the tool start, then runs the tool; a tool that throws gives an error result. */
async function execute(call: FunctionCall, tool: AnyTool, args: unknown, state: unknown, options: CallOptions, emit: Emit): Promise<ToolResult> {
  // Saved before the tool runs, so a crash leaves an `unknown` result, never a re-run.
  // The temporary files it may create are named here too, so a crash's leftovers can be told from anything else.
  const tempFiles = tool.temporaryFiles?.(state) ?? [];
  // A command's processes carry a mark named here, so any that outlive a crash can be found on resume.
  const processMark = tool.processMark?.(state);
  await options.log.append({
    type: 'tool_start',
    call_id: call.call_id,
    name: call.name,
    arguments: call.arguments,
    ...(tempFiles.length > 0 ? { temp_files: tempFiles.map(({ path, dir }) => ({ path, dir })) } : {}),
    ...(processMark !== undefined ? { process_mark: processMark } : {}),
  });
  try {
    // Each change the call makes is kept for undo under its own call id.
    // What a command prints is shown live under its call id; only the result is saved.
    const callContext: ToolContext = {
      ...options.context,
      ...(options.preImages ? { keepPreImage: options.preImages(call.call_id) } : {}),
      onOutput: (chunk) => emit({ type: 'tool_output', callId: call.call_id, chunk }),
    };
    return await tool.execute(args, state, callContext);
  } catch (error) {
    return { status: 'error', output: `The tool failed unexpectedly: ${errorText(error)}` };
  }
}

/** Saves a call's result and tells it. */
export async function saveResult(log: SessionLog, call: FunctionCall, result: ToolResult, emit: Emit): Promise<ToolResult> {
  await log.append({ type: 'tool_result', call_id: call.call_id, name: call.name, status: result.status, output: result.output });
  emit({ type: 'tool_result', callId: call.call_id, name: call.name, status: result.status, output: result.output });
  return result;
}

/** An MCP call's server and tool, as rules name them, read from its name. */
function mcpPairOf(kind: string, name: string): { mcp?: { server: string; tool: string } } {
  const pair = kind === 'mcp' ? parseMcpToolName(name) : null;
  return pair ? { mcp: pair } : {};
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
