// Checks arguments against a server tool's input schema before anything is
// sent, with the JSON-schema validator the MCP SDK itself uses. Pure: the
// schema came with the tool list, so no server is needed.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types';
import type { ArgumentsCheck } from './validateCall';
import { errorText, log } from '../log/log';

const validator = new AjvJsonSchemaValidator();

/**
 * Prepares the check once per tool. A schema the validator cannot compile
 * gives no check: the server validates its own arguments anyway, and a
 * strict check here must never block a tool that works.
 */
export function prepareArgumentsCheck(inputSchema: Record<string, unknown>): ArgumentsCheck | undefined {
  let validate: ReturnType<AjvJsonSchemaValidator['getValidator']>;
  try {
    validate = validator.getValidator(withoutMetaSchema(inputSchema) as JsonSchemaType);
  } catch (error) {
    log.info('mcp.schema_not_checked', { error: errorText(error) });
    return undefined;
  }
  return (args) => {
    const result = validate(args);
    return result.valid ? null : (result.errorMessage ?? 'invalid arguments');
  };
}

// Servers name drafts ("$schema") that a validator may not know; the
// keywords that matter to a call's arguments are the same across them.
function withoutMetaSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
