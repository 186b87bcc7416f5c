// The CLI's transport: the `undici` package's fetch, through the proxy that
// HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (their lower-case forms win, as
// curl reads them), from the package's fetch entry, `undici/index-fetch.js`
// (undiciLib.d.ts). The desktop passes Electron's net.fetch instead, which
// applies the system's proxy settings, PAC files and certificate store.
//
// Why the package's fetch and not Node's own (which is undici too): Node's
// ignores these variables (unless started with NODE_USE_ENV_PROXY); and it is
// loaded from Node's built-in files at the first touch of fetch, Headers,
// Request, Response or FormData, with a code cache of their top level only, so
// every run compiled the functions a request calls again. The package is part
// of the `mino` bundle, kept compiled by its launcher's code cache
// (src/cli/codeCache.ts). So that Node's copy is not loaded as well, the CLI
// installs the package's as those globals (installPackageFetch) before an
// SDK, which touches them as it loads, is loaded.

export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** The proxy variables of `env`; empty strings where unset. */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const read = (name: string) => (env[name.toLowerCase()] ?? env[name] ?? '').trim();
  return { httpProxy: read('HTTP_PROXY'), httpsProxy: read('HTTPS_PROXY'), noProxy: read('NO_PROXY') };
}

/** A fetch for `env`: through the proxy it names, if any (NO_PROXY's hosts excepted), else direct. Loaded at its first request. */
export function environmentFetch(env: NodeJS.ProcessEnv = process.env): typeof fetch {
  const settings = proxySettings(env);
  let loaded: Promise<typeof fetch> | undefined;
  return async (input, init) => (await (loaded ??= packageFetch(settings)))(input, init);
}

async function packageFetch(settings: ProxySettings): Promise<typeof fetch> {
  const { fetch: undiciFetch, EnvHttpProxyAgent } = await import('undici/index-fetch.js');
  if (!settings.httpProxy && !settings.httpsProxy) return undiciFetch as unknown as typeof fetch;
  // Empty strings, never undefined: the agent would read process.env for an option left out.
  const dispatcher = new EnvHttpProxyAgent(settings);
  return ((url: Parameters<typeof fetch>[0], options?: RequestInit) =>
    undiciFetch(url as Parameters<typeof undiciFetch>[0], { ...(options as object), dispatcher })) as unknown as typeof fetch;
}

/**
 * Makes the package's fetch, Headers, Request, Response and FormData this process's (the fetch half of what the
 * package's own `install()` does, without loading its index): for the CLI, before the first request of a command that
 * makes any. Answers then are of the same classes as the SDKs see as globals.
 */
export async function installPackageFetch(): Promise<void> {
  const { fetch, Headers, Request, Response, FormData } = await import('undici/index-fetch.js');
  Object.assign(globalThis, { fetch, Headers, Request, Response, FormData });
}
