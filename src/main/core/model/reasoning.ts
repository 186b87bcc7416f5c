// Whether a request asks for reasoning items and a reasoning summary. `auto`
// turns it on for OpenAI's reasoning model families, and for a session whose
// model has already sent reasoning; the effort is sent only when chosen.
import type { ModelRequest, ReasoningEffort } from './types';

export type ReasoningSetting = 'auto' | 'on' | 'off';

const REASONING_FAMILY = /^(o[1-9]|gpt-5|codex|gpt-oss)/i;

export function reasoningRequest(
  setting: ReasoningSetting,
  effort: ReasoningEffort | 'default',
  model: string,
  sawReasoning: boolean,
): ModelRequest['reasoning'] {
  const on = setting === 'on' || (setting === 'auto' && (REASONING_FAMILY.test(model.trim()) || sawReasoning));
  if (!on) return undefined;
  return effort === 'default' ? {} : { effort };
}
