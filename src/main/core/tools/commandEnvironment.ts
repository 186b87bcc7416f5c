// What a command sees of the person's environment: everything but the
// variables Mino keeps to itself (the model service key) and any variable
// holding a credential configured for an MCP server.

/** A configured value shorter than this ("1", "on") names no secret; withholding every variable equal to it would only break things. */
export const MIN_CREDENTIAL_LENGTH = 4;

/** Variables a command never sees: the model service key would otherwise be one `env` away from the model. */
export const WITHHELD_VARIABLES = ['OPENAI_API_KEY'] as const;

/**
 * The person's environment, less the variables Mino keeps to itself and any
 * variable holding a credential configured for an MCP server.
 */
export function commandEnvironment(env: NodeJS.ProcessEnv, credentials: readonly string[] = []): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of WITHHELD_VARIABLES) delete copy[name];
  const secrets = new Set(credentials.filter((value) => value.length >= MIN_CREDENTIAL_LENGTH));
  for (const [name, value] of Object.entries(copy)) {
    if (value !== undefined && secrets.has(value)) delete copy[name];
  }
  return copy;
}

