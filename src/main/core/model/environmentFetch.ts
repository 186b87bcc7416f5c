// The CLI's transport: a fetch that honours HTTPS_PROXY, HTTP_PROXY and
// NO_PROXY (and their lower-case forms, which win, as curl reads them). The
// desktop passes Electron's net.fetch instead, which applies the system's
// proxy settings, PAC files and certificate store.
//
// Node's own fetch ignores these variables (unless started with
// NODE_USE_ENV_PROXY), so a request through a proxy uses the `undici`
// package's fetch with its EnvHttpProxyAgent, given the variables from `env`
// rather than left to read process.env. It is loaded only when a proxy is
// set: without one, Node's fetch needs nothing more loaded at start-up.

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

/** A fetch for `env`: through the proxy it names, if any (NO_PROXY's hosts excepted), else Node's own. */
export function environmentFetch(env: NodeJS.ProcessEnv = process.env): typeof fetch {
  const settings = proxySettings(env);
  if (!settings.httpProxy && !settings.httpsProxy) return (input, init) => globalThis.fetch(input, init);
  let proxied: Promise<typeof fetch> | undefined;
  return async (input, init) => {
    proxied ??= import('undici').then(({ fetch: undiciFetch, EnvHttpProxyAgent }) => {
      // Empty strings, never undefined: the agent would read process.env for an option left out.
      const dispatcher = new EnvHttpProxyAgent(settings);
      return ((url: Parameters<typeof fetch>[0], options?: RequestInit) =>
        undiciFetch(url as Parameters<typeof undiciFetch>[0], { ...(options as object), dispatcher })) as unknown as typeof fetch;
    });
    return (await proxied)(input, init);
  };
}
