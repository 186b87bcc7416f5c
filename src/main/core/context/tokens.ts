// Counting tokens before a request is sent, to know whether it fits the
// context window. OpenAI's model families are counted with gpt-tokenizer's
// o200k_base encoding; any other model, or a tokenizer that cannot be loaded,
// gets a conservative estimate (it counts high, so Mino compacts early rather
// than late). Which one is in use is named, so it can be logged.
import type { HistoryItem } from '../model/types';

export interface TokenCounter {
  /** "gpt-tokenizer o200k_base" or "estimate (1 token per 3 bytes)". */
  readonly name: string;
  count(text: string): number;
}

/**
 * Counts high on purpose: prose is about 4 UTF-8 bytes a token, CJK text about
 * 3, and punctuation-dense code nearly 2.8 in OpenAI's tokenizers; others are
 * less efficient still. 2.5 bytes a token stays above all of them.
 */
export const ESTIMATE_COUNTER: TokenCounter = {
  name: 'estimate (1 token per 2.5 bytes)',
  count: (text) => Math.ceil((Buffer.byteLength(text, 'utf8') * 2) / 5),
};

/** Model names whose tokenizer is o200k_base. */
const O200K_FAMILY = /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o[1-9]|chatgpt-|codex|gpt-oss)/i;

/** Framing the service adds around each input item (role, type markers). */
const PER_ITEM_TOKENS = 4;

let o200k: Promise<TokenCounter | null> | undefined;

/** Loaded on first use: the encoding's tables take a few tens of megabytes, which a session that never counts should not pay. */
function loadO200k(): Promise<TokenCounter | null> {
  o200k ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (module) => {
      // Special-token text in a file or a message is ordinary text here.
      const options = { disallowedSpecial: new Set<string>() };
      return { name: 'gpt-tokenizer o200k_base', count: (text: string) => module.countTokens(text, options) };
    },
    () => null,
  );
  return o200k;
}

/** The counter for a model name: the tokenizer when the family is known and it loads, else the estimate. */
export async function tokenCounterFor(model: string): Promise<TokenCounter> {
  if (!O200K_FAMILY.test(model.trim())) return ESTIMATE_COUNTER;
  return (await loadO200k()) ?? ESTIMATE_COUNTER;
}

/** The text of an item that the service counts as input. */
function itemText(item: HistoryItem): string {
  switch (item.type) {
    case 'message':
    case 'summary':
      return item.text;
    case 'function_call':
      return `${item.name} ${item.arguments}`;
    case 'function_call_output':
      return item.output;
    case 'reasoning':
      return item.summary.map((part) => part.text).join('\n');
  }
}

const counted = new WeakMap<TokenCounter, WeakMap<object, number>>();

/** Tokens of one input item; remembered per item, so a long history is counted once. */
export function itemTokens(counter: TokenCounter, item: HistoryItem): number {
  let cache = counted.get(counter);
  if (!cache) counted.set(counter, (cache = new WeakMap()));
  const known = cache.get(item);
  if (known !== undefined) return known;
  // Encrypted reasoning is opaque here; the service counts about the reasoning it stands for, a quarter of its length.
  const encrypted = item.type === 'reasoning' && typeof item.encrypted_content === 'string' ? Math.ceil(item.encrypted_content.length / 4) : 0;
  const tokens = counter.count(itemText(item)) + encrypted + PER_ITEM_TOKENS;
  cache.set(item, tokens);
  return tokens;
}

export function itemsTokens(counter: TokenCounter, items: readonly HistoryItem[]): number {
  let total = 0;
  for (const item of items) total += itemTokens(counter, item);
  return total;
}
