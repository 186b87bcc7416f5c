// The grammar of a rule, as a person types it after `mino rules add` and as
// it is stored:
//   allow|ask|deny bash PREFIX...          a command prefix, in the sandbox
//   allow|ask|deny bash-outside PREFIX...  a command prefix, outside the sandbox
//   allow|ask|deny mcp SERVER[/TOOL]       one server's tools, or one of them
//   ask|deny file GLOB                     every file-tool access to matching project paths
//   ask|deny file-write GLOB               writes and edits of matching project paths
//   protect GLOB                           a protected path, refused in every mode
//   off TOOL                               a tool not offered to the model
// A bad rule is refused with what is wrong; nothing is guessed.
import type { RuleBody, RuleEffect } from './rules';

export type RuleParse = { ok: true; body: RuleBody; text: string } | { ok: false; reason: string };

export const RULE_GRAMMAR = [
  'allow|ask|deny bash PREFIX...',
  'allow|ask|deny bash-outside PREFIX...',
  'allow|ask|deny mcp SERVER[/TOOL]',
  'ask|deny file GLOB',
  'ask|deny file-write GLOB',
  'protect GLOB',
  'off TOOL',
] as const;

const EFFECTS: readonly string[] = ['allow', 'ask', 'deny'];

// A prefix word is compared with the words a shell parser gives (quotes and
// escapes removed), so it is written plainly: a character the shell would
// read specially cannot be meant literally here, and is refused.
const SHELL_SPECIAL = /[\s;&|<>()$`\\"'*?[\]{}~#=!]/u;

export interface GrammarOptions {
  /** Names of the tools `off` may name: the built-in ones; MCP tools are named `mcp_<server>__<tool>`. */
  readonly knownTools: readonly string[];
  readonly isMcpToolName: (name: string) => boolean;
  /** Why a server name cannot be one (mcp/toolName.ts), or null; absent: any name is taken as it is. */
  readonly serverNameProblem?: (server: string) => string | null;
}

/** Parses a rule from its words (`['allow', 'bash', 'npm', 'test']`) or from its text. */
export function parseRule(input: string | readonly string[], options: GrammarOptions): RuleParse {
  const words = typeof input === 'string' ? input.trim().split(/\s+/u).filter((w) => w !== '') : input.flatMap((w) => w.trim().split(/\s+/u)).filter((w) => w !== '');
  const [first, second, ...rest] = words;
  if (first === undefined) return refuse(`a rule is empty. Write one of: ${RULE_GRAMMAR.join('; ')}`);
  if (first === 'protect') return globRule(second, rest, (glob) => ({ kind: 'protect', glob }), 'protect');
  if (first === 'off') return offRule(second, rest, options);
  if (!EFFECTS.includes(first)) return refuse(`"${first}" is not a kind of rule. Start with allow, ask, deny, protect or off: ${RULE_GRAMMAR.join('; ')}`);
  const effect = first as RuleEffect;
  switch (second) {
    case 'bash':
    case 'bash-outside':
      return bashRule(effect, second === 'bash-outside', rest);
    case 'mcp':
      return mcpRule(effect, rest, options);
    case 'file':
    case 'file-write':
      if (effect === 'allow') return refuse(`file rules can ask or deny, not allow: file tools already read project files in every mode, and writes are the mode's to allow. Write "ask ${second} GLOB" or "deny ${second} GLOB"`);
      return globRule(rest[0], rest.slice(1), (glob) => ({ kind: 'file', effect, access: second === 'file' ? 'all' : 'write', glob }), `${effect} ${second}`);
    default:
      return refuse(`"${first}" must be followed by bash, bash-outside, mcp, file or file-write${second === undefined ? '' : `, not "${second}"`}`);
  }
}

/** The canonical text of a parsed rule: what is stored and shown. */
export function ruleText(body: RuleBody): string {
  switch (body.kind) {
    case 'bash':
      return `${body.effect} ${body.outside ? 'bash-outside' : 'bash'} ${body.prefix.join(' ')}`;
    case 'mcp':
      return `${body.effect} mcp ${body.server}${body.tool === null ? '' : `/${body.tool}`}`;
    case 'file':
      return `${body.effect} ${body.access === 'all' ? 'file' : 'file-write'} ${body.glob}`;
    case 'protect':
      return `protect ${body.glob}`;
    case 'off':
      return `off ${body.tool}`;
  }
}

function bashRule(effect: RuleEffect, outside: boolean, prefix: string[]): RuleParse {
  const kind = outside ? 'bash-outside' : 'bash';
  if (prefix.length === 0) return refuse(`"${effect} ${kind}" needs a command prefix, such as "${effect} ${kind} npm test"; an empty prefix would cover every command`);
  const special = prefix.find((word) => SHELL_SPECIAL.test(word));
  if (special !== undefined) {
    return refuse(`the prefix word "${special}" holds a character the shell reads specially (quotes, $, ;, |, &, <, >, globs...). Write the command's words as plain words: they are compared with each simple command after the shell's parsing`);
  }
  return accepted({ kind: 'bash', effect, outside, prefix });
}

function mcpRule(effect: RuleEffect, rest: string[], options: GrammarOptions): RuleParse {
  const [target, ...extra] = rest;
  if (target === undefined) return refuse(`"${effect} mcp" needs a server, or a server and one of its tools: "${effect} mcp SERVER" or "${effect} mcp SERVER/TOOL"`);
  if (extra.length > 0) return refuse(`"${effect} mcp" takes one SERVER or SERVER/TOOL, not "${rest.join(' ')}"`);
  const slash = target.indexOf('/');
  const server = slash === -1 ? target : target.slice(0, slash);
  const tool = slash === -1 ? null : target.slice(slash + 1);
  const problem = server === '' ? 'must not be empty' : (options.serverNameProblem?.(server) ?? null);
  if (problem !== null) return refuse(`the server name "${server}" ${problem}`);
  if (tool !== null && !/^[a-zA-Z0-9_-]+$/u.test(tool)) return refuse(`the tool name "${tool}" may contain only letters, digits, "_" and "-"`);
  return accepted({ kind: 'mcp', effect, server, tool });
}

function offRule(tool: string | undefined, rest: string[], options: GrammarOptions): RuleParse {
  if (tool === undefined || rest.length > 0) return refuse(`"off" takes one tool name, such as "off bash"`);
  if (!options.knownTools.includes(tool) && !options.isMcpToolName(tool)) {
    return refuse(`there is no tool named "${tool}". Name one of: ${options.knownTools.join(', ')}, or an MCP tool as mcp_<server>__<tool>`);
  }
  return accepted({ kind: 'off', tool });
}

function globRule(glob: string | undefined, rest: string[], make: (glob: string) => RuleBody, head: string): RuleParse {
  if (glob === undefined || rest.length > 0) return refuse(`"${head}" takes one glob of project paths, such as "${head} docs/secret.md" or "${head} secrets/**"`);
  const problem = globProblem(glob);
  return problem === null ? accepted(make(glob.replace(/^(?:\.\/)+/u, ''))) : refuse(problem);
}

/** Why a glob cannot name project paths, or null: it must stay inside the project. */
export function globProblem(glob: string): string | null {
  if (glob.startsWith('/') || glob.startsWith('~') || /^[a-zA-Z]:/u.test(glob) || glob.startsWith('\\')) {
    return `"${glob}" is an absolute path; a file rule names project paths, relative to the project folder (such as "docs/secret.md")`;
  }
  if (glob.split(/[\\/]/u).some((segment) => segment === '..')) return `"${glob}" escapes the project with ".."; a file rule names paths inside the project`;
  if (glob.includes('\\')) return `"${glob}" holds a backslash; separate folders with "/"`;
  if (glob.replace(/^(?:\.\/)+/u, '') === '') return `"${glob}" names no path`;
  return null;
}

function accepted(body: RuleBody): RuleParse {
  return { ok: true, body, text: ruleText(body) };
}

function refuse(reason: string): RuleParse {
  return { ok: false, reason: `Not a valid rule: ${reason}.` };
}
