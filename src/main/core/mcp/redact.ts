// Keeps configured credentials out of everything a server sends back. A
// server may echo its environment or its request headers, in a result or in
// its own tool list; whatever it sends reaches the model, the session log and
// the screen, so every value a person configured for that server is replaced
// before it leaves here.
import { isStdioServer, type McpServerConfig } from './config';

export const REDACTED = '[redacted]';

/**
 * Values shorter than this are not redacted: replacing every "1" or "on" in
 * a result would garble it while protecting nothing worth a secret's name.
 */
export const MIN_SECRET_LENGTH = 4;

/** Every credential value configured for one server: env values, header values and URL query values. */
export function credentialValues(server: McpServerConfig): string[] {
  const values: string[] = [];
  if (isStdioServer(server)) {
    values.push(...Object.values(server.env ?? {}));
  } else {
    for (const value of Object.values(server.headers ?? {})) {
      values.push(value);
      // "Bearer <token>": the token alone may be echoed without its scheme.
      const lastWord = value.trim().split(/\s+/).pop();
      if (lastWord !== undefined && lastWord !== value) values.push(lastWord);
    }
    // Some services take a key in the query string ("?key=..."); it is as secret as a header.
    for (const value of new URL(server.url).searchParams.values()) values.push(value);
  }
  return values;
}

export type Redactor = (text: string) => string;

/** Builds a function that replaces each value, and its JSON-escaped form, with [redacted]. */
export function makeRedactor(values: string[]): Redactor {
  const forms = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
  }
  if (forms.size === 0) return (text) => text;
  // Longest first, so a secret that contains another is replaced whole.
  const pattern = new RegExp([...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED);
}

/**
 * A JSON value (a tool's input schema) with every string in it redacted, keys
 * included. Walked rather than redacted as text, so a secret that spans JSON
 * punctuation cannot break the structure.
 */
export function redactJson(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)]));
  }
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
