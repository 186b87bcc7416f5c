// What the wires built on an official SDK (responses and chat on `openai`,
// anthropic on `@anthropic-ai/sdk`) share: the options they are built from,
// how their timeout stands to the transport's, and what they take away from
// the SDK's own reading of the environment.

export interface SdkWireOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  organization?: string;
  project?: string;
  parallelToolCalls?: boolean;
  /** The guarded fetch times the headers; the SDK's own limit is set past it so that one is what fires. */
  timeoutMs: number;
}

/** Past the guarded fetch's own timeout, so the SDK's never decides first. */
export const SDK_TIMEOUT_MARGIN_MS = 60_000;

/**
 * `construct()` with `names` out of process.env while it runs. The SDKs read
 * some variables in their constructors whatever they are given, and no
 * option turns them off: OPENAI_CUSTOM_HEADERS and ANTHROPIC_CUSTOM_HEADERS
 * ("Name: value" lines) add headers to every request, over the SDK's own,
 * the key's included. Mino sends only what its configuration says, the same
 * from the desktop and from the CLI. Taking a header back in the options
 * would not do: a null there also drops the SDK's own header of that name.
 * The constructor is synchronous, so nothing else runs while they are out.
 */
export function constructUnseen<T>(names: readonly string[], construct: () => T): T {
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const name of names) delete process.env[name];
  try {
    return construct();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
