// What a rule the person writes may name: the built-in tools (for `off`), MCP
// tool names and server names as Mino forms them. One place, so the CLI and
// the desktop accept exactly the same rules.
import { isMcpToolName, serverNameProblem } from '../mcp/toolName';
import type { GrammarOptions } from '../rules/ruleGrammar';
import { BUILTIN_TOOLS } from './defaultDeps';

export const PERSON_RULE_GRAMMAR: GrammarOptions = {
  knownTools: BUILTIN_TOOLS.map((tool) => tool.name),
  isMcpToolName,
  serverNameProblem,
};
