// Counting tokens before a request is sent, to know whether it fits the
// context window. OpenAI's model families are counted with gpt-tokenizer's
// o200k_base encoding; any other model, or a tokenizer that cannot be loaded,
// gets a conservative estimate (it counts high, so Mino compacts early rather
// than late). Which one is in use is named, so it can be logged.
//
// Loading the tokenizer (a 2.5 MB module and its tables) takes longer than
// everything else `mino exec` does before its first request, and most
// requests do not need it: until a session nears its compaction point, an
// upper bound decides "no compaction yet" as surely as the exact count would.
// A turn counts with that bound first and loads the tokenizer only when the
// bound does not settle the question (turnCounterFor, agent/runTurn.ts).
import type { HistoryItem } from '../model/types';
import { messageImages } from '../model/imageParts';

export interface TokenCounter {
  /** "gpt-tokenizer o200k_base" or "estimate (1 token per 3 bytes)". */
  readonly name: string;
  /** The model's own tokenizer, not an estimate or a bound: its count may be set against a service's report. */
  readonly exact?: boolean;
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

/**
 * Never counts less than o200k_base (or any byte-level BPE tokenizer): each of
 * its tokens stands for at least one byte of the UTF-8 text, so a text has at
 * most as many tokens as bytes. The estimate above cannot stand in for it:
 * measured with o200k_base, JSON, hex, base64 and punctuation-dense or random
 * text take 1.3-2.3 bytes a token, so the estimate counts them up to 46% low.
 * Prose and code take about 4.4, so the bound counts them about 4.4 times
 * high, which only matters once it nears the compaction point.
 */
export const BYTE_BOUND_COUNTER: TokenCounter = {
  name: 'upper bound (1 token per byte)',
  count: (text) => Buffer.byteLength(text, 'utf8'),
};

/** Model names whose tokenizer is o200k_base. */
const O200K_FAMILY = /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o[1-9]|chatgpt-|codex|gpt-oss)/i;

/** Framing the service adds around each input item (role, type markers). */
const PER_ITEM_TOKENS = 4;

let o200k: Promise<TokenCounter | null> | undefined;
/** The tokenizer once loaded, so a later turn counts exactly from the start. */
let o200kLoaded: TokenCounter | undefined;

/** Loaded on first use: the encoding's tables take a few tens of megabytes, which a session that never counts should not pay. */
function loadO200k(): Promise<TokenCounter | null> {
  o200k ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (module) => {
      // Special-token text in a file or a message is ordinary text here.
      const options = { disallowedSpecial: new Set<string>() };
      o200kLoaded = { name: 'gpt-tokenizer o200k_base', exact: true, count: (text: string) => module.countTokens(text, options) };
      return o200kLoaded;
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

/**
 * The counter a turn starts with, and how to get the exact one when it is only
 * a bound of it (`exact` set): the tokenizer once loaded; before that, the
 * free upper bound, whose count below a limit proves the exact count is below
 * it too, while any other decision needs `exact()`. For a model without a
 * tokenizer it is the estimate, as tokenCounterFor gives.
 */
export function turnCounterFor(model: string): { counter: TokenCounter; exact?: () => Promise<TokenCounter> } {
  if (!O200K_FAMILY.test(model.trim())) return { counter: ESTIMATE_COUNTER };
  if (o200kLoaded) return { counter: o200kLoaded };
  return { counter: BYTE_BOUND_COUNTER, exact: () => tokenCounterFor(model) };
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

/** What one attached image is counted as: about what OpenAI and Anthropic charge for an image at the size they scale it to. */
export const IMAGE_TOKENS = 1_600;

const counted = new WeakMap<TokenCounter, WeakMap<object, number>>();

/** Tokens of one input item; remembered per item, so a long history is counted once. */
export function itemTokens(counter: TokenCounter, item: HistoryItem): number {
  let cache = counted.get(counter);
  if (!cache) counted.set(counter, (cache = new WeakMap()));
  const known = cache.get(item);
  if (known !== undefined) return known;
  // Encrypted reasoning is opaque here; the service counts about the reasoning it stands for, a quarter of its length.
  const encrypted = item.type === 'reasoning' && typeof item.encrypted_content === 'string' ? Math.ceil(item.encrypted_content.length / 4) : 0;
  // An attached image costs what the services charge for a large one; its bytes are never counted as text.
  const images = (messageImages(item)?.length ?? 0) * IMAGE_TOKENS;
  const tokens = counter.count(itemText(item)) + encrypted + images + PER_ITEM_TOKENS;
  cache.set(item, tokens);
  return tokens;
}

export function itemsTokens(counter: TokenCounter, items: readonly HistoryItem[]): number {
  let total = 0;
  for (const item of items) total += itemTokens(counter, item);
  return total;
}
