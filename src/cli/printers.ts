// How `mino exec` shows a turn: the book's transcript form for people, or one
// JSON object per line for scripts.
import type { TurnEvent } from '../main/core/agent/events';
import { confirmationRiskHints, RISK_HINTS_NOTE } from '../shared/bashRiskHints';
import type { PermissionMode } from '../shared/domain';
import { sandboxStatusText, type SandboxStatus } from '../shared/sandboxStatus';
import type { ProjectInstructionsView } from '../shared/sessions';
import { allowedRecordTitle, askedByRulesLine, askedTitle, formatConfirmationFields, planChecklist, projectInstructionsLine, ruleAllowedTitle } from '../shared/transcriptText';
import { jsonLine, terminalOutput, type Output } from './terminalText';

export type { Output } from './terminalText';

/** What the start of a run names, as the book's banner does. */
export interface SessionBanner {
  id: string;
  contextWindow: number;
  /** The window is the default, not set in ~/.mino/config.json. */
  contextWindowIsDefault: boolean;
  mode: PermissionMode;
  /** What sandboxes the bash commands of this run, or why nothing does. */
  sandbox: SandboxStatus;
  /** The project's AGENTS.md (or CLAUDE.md) as the model is told it; null or absent when it has none. */
  projectInstructions?: ProjectInstructionsView | null;
}

export interface TurnPrinter {
  session(banner: SessionBanner): void;
  event(event: TurnEvent): void;
  /** Printed right after an ask, with how it was answered. */
  approvalAnswer(approved: boolean, how: string): void;
}

export function textPrinter(rawOut: Output, rawErr: Output): TurnPrinter {
  // Every line carries text from outside (model, files, commands, servers): none reaches the terminal raw.
  const out = terminalOutput(rawOut);
  const err = terminalOutput(rawErr);
  let assistantOpen = false; // an "Assistant>" header is owed before the next output
  let inText = false;
  const openAssistant = (inline: boolean) => {
    if (assistantOpen) {
      out.write(inline ? '\nAssistant> ' : '\nAssistant>\n');
      assistantOpen = false;
    }
  };
  const endText = () => {
    if (inText) out.write('\n');
    inText = false;
  };
  return {
    session(banner) {
      out.write(bannerText(banner));
    },
    approvalAnswer(approved, how) {
      out.write(`Approve this operation? [y/N] ${approved ? 'y' : 'n'} (${how})\n\n`);
    },
    event(event) {
      switch (event.type) {
        case 'user_message':
          out.write(`You> ${event.text}\n`);
          if (event.images?.length) out.write(`     (${event.images.length} ${event.images.length === 1 ? 'image' : 'images'} attached)\n`);
          return;
        case 'assistant_start':
          endText();
          assistantOpen = true;
          return;
        case 'assistant_delta':
          openAssistant(true);
          inText = true;
          out.write(event.delta);
          return;
        case 'assistant_text':
        case 'tool_call':
        case 'approval':
        case 'reasoning_delta':
        case 'reasoning_text':
        // The banner names the project instructions; one exec is one turn.
        case 'project_instructions':
          return;
        case 'plan':
          endText();
          out.write(`Plan:\n${planChecklist(event.plan).join('\n')}\n\n`);
          return;
        case 'compaction':
          endText();
          out.write(`${compactionLine(event)}\n\n`);
          return;
        case 'tool_confirmation':
          endText();
          openAssistant(false);
          out.write(`${confirmationLines(event).join('\n')}\n`);
          if (!event.asked) out.write('\n');
          return;
        case 'tool_result':
          endText();
          openAssistant(false);
          out.write(`[Tool result: ${event.status}]\n${event.output}${event.output.endsWith('\n') ? '' : '\n'}\n`);
          return;
        case 'notice':
          endText();
          err.write(`Note: ${event.message}\n`);
          return;
        case 'model_retry':
          endText();
          err.write(`Note: ${event.message}\n`);
          return;
        case 'turn_end':
          endText();
          if (event.status !== 'completed' && event.message) err.write(`Turn ended (${event.status}): ${event.message}\n`);
          out.write('\n');
          return;
      }
    },
  };
}

/** The banner's lines, then a blank line. */
function bannerText(banner: SessionBanner): string {
  const instructions = banner.projectInstructions ? [sentence(projectInstructionsLine(banner.projectInstructions))] : [];
  const lines = [
    `Context window: ${banner.contextWindow} tokens${banner.contextWindowIsDefault ? ' (default)' : ''}.`,
    `Session: ${banner.id}`,
    `Permission mode: ${banner.mode}. Use --mode to change it.`,
    `Sandbox: ${sandboxStatusText(banner.sandbox)}.`,
    ...instructions,
  ];
  return `${lines.join('\n')}\n\n`;
}

/** A confirmation as the transcript shows it: asked, or allowed by the mode and recorded. */
function confirmationLines(event: Extract<TurnEvent, { type: 'tool_confirmation' }>): string[] {
  const { confirmation } = event;
  const title = event.asked ? askedTitle(event.name) : confirmation.rules ? ruleAllowedTitle(event.name, confirmation.rules) : allowedRecordTitle(event.name, event.mode);
  // Which of the person's rules made the call ask, as the dialog says it.
  const askedBy = event.asked && confirmation.rules ? [askedByRulesLine(confirmation.rules)] : [];
  const lines = [title, ...askedBy, ...formatConfirmationFields(confirmation)];
  // Hints under an ask only (a mode-allowed record lists fields, nothing more): never a decision.
  const hints = event.asked ? confirmationRiskHints(confirmation) : [];
  if (hints.length > 0) lines.push(...hints.map((hint) => `Risk: ${hint.message}`), `(${RISK_HINTS_NOTE})`);
  // What a write will contain, or an external call's full arguments: shown in full, as the dialog does.
  if (confirmation.preview !== undefined) lines.push('Preview:', confirmation.preview.replace(/\r?\n$/, ''), '(end of preview)');
  if (confirmation.hiddenCharacterWarning) lines.push(confirmation.hiddenCharacterWarning);
  if (event.asked && confirmation.warning) lines.push(confirmation.warning);
  return lines;
}

export function jsonPrinter(out: Output): TurnPrinter {
  const line = (value: unknown) => out.write(`${jsonLine(value)}\n`);
  return {
    session(banner) {
      const instructions = banner.projectInstructions;
      line({
        type: 'session',
        id: banner.id,
        context_window: banner.contextWindow,
        mode: banner.mode,
        sandbox: banner.sandbox,
        ...(instructions ? { project_instructions: { file: instructions.file, tokens: instructions.tokens, ...(instructions.truncated ? { truncated: true } : {}), ...(instructions.notRead !== undefined ? { not_read: instructions.notRead } : {}) } } : {}),
      });
    },
    approvalAnswer() {
      // The `approval` event carries the answer.
    },
    event(event) {
      switch (event.type) {
        case 'assistant_text':
          line({ type: 'assistant_text', text: event.text });
          return;
        case 'tool_call':
          line({ type: 'tool_call', call_id: event.callId, name: event.name, arguments: event.arguments, decision: event.decision, mode: event.mode });
          return;
        case 'tool_confirmation':
          line({
            type: 'tool_confirmation',
            call_id: event.callId,
            name: event.name,
            asked: event.asked,
            fields: event.confirmation.fields,
            ...(event.confirmation.preview !== undefined ? { preview: event.confirmation.preview } : {}),
            ...(event.confirmation.rules !== undefined ? { rules: event.confirmation.rules } : {}),
          });
          return;
        case 'approval':
          line({ type: 'approval', call_id: event.callId, approved: event.approved });
          return;
        case 'tool_result':
          line({ type: 'tool_result', call_id: event.callId, name: event.name, status: event.status, output: event.output });
          return;
        case 'notice':
          line({ type: 'notice', message: event.message });
          return;
        case 'model_retry':
          line({ type: 'model_retry', message: event.message, attempt: event.attempt, attempts: event.attempts, delay_ms: event.delayMs });
          return;
        case 'reasoning_text':
          line({ type: 'reasoning', text: event.text });
          return;
        case 'plan':
          line({ type: 'plan', call_id: event.callId, steps: event.plan.steps, ...(event.plan.explanation !== undefined ? { explanation: event.plan.explanation } : {}) });
          return;
        case 'compaction':
          line(compactionJson(event));
          return;
        case 'turn_end':
          line({
            type: 'turn_end',
            status: event.status,
            ...(event.message ? { message: event.message } : {}),
            ...(event.usage
              ? {
                  usage: {
                    input_tokens: event.usage.inputTokens,
                    cached_input_tokens: event.usage.cachedInputTokens,
                    output_tokens: event.usage.outputTokens,
                    reasoning_tokens: event.usage.reasoningTokens,
                  },
                }
              : {}),
            ...(event.context ? { context: { used: event.context.used, window: event.context.window } } : {}),
          });
          return;
        default:
          return;
      }
    },
  };
}

/** A line ended as a sentence, once. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

type Compaction = Extract<TurnEvent, { type: 'compaction' }>;

export function compactionLine(event: Compaction): string {
  const who = event.trigger === 'auto' ? 'automatically, near the context window' : event.trigger === 'manual' ? 'as asked' : 'summary edited by the person';
  return `[Context compacted (${who}): ${event.tokensBefore} -> ${event.tokensAfter} tokens]`;
}

export function compactionJson(event: Compaction) {
  return { type: 'compaction', trigger: event.trigger, author: event.author, tokens_before: event.tokensBefore, tokens_after: event.tokensAfter, summary: event.summary };
}
