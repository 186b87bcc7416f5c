// `mino rules list|add|remove`: the person's rules (core/rules), global or
// for one project. Typing the command is the person's own act, so nothing is
// asked; a bad rule is refused with what is wrong, and nothing is saved.
import * as path from 'node:path';
import { PERSON_RULE_GRAMMAR } from '../main/core/agent/personRuleGrammar';
import { checkProjectDir } from '../main/core/projects/checkProject';
import { RULE_GRAMMAR } from '../main/core/rules/ruleGrammar';
import type { Rule, RuleScope } from '../main/core/rules/rules';
import { addPersonRule, removePersonRule, rulesInScope } from '../main/core/rules/ruleService';
import { UsageError } from './args';
import { escapedIo, EXIT, failWith, inMinoHome, type CommandIo, type Fail } from './commandSetup';
import { jsonLine, terminalOutput } from './terminalText';

export const RULES_USAGE = `  mino rules list [--project DIR | --global] [--json]
  mino rules add [--project DIR | --global] RULE
  mino rules remove ID

RULE is one of:
${RULE_GRAMMAR.map((form) => `  ${form}`).join('\n')}
A rule is for the project in DIR (default: the current directory) or, with --global, for every project.
list shows the rules that apply in the project (global ones too), or with --global only the global ones.`;

export type RulesArgs =
  | { command: 'list'; where: Where; json: boolean }
  | { command: 'add'; where: Where; words: string[] }
  | { command: 'remove'; id: string };

/** `dir` as typed (undefined: the current directory), or every project. */
type Where = { global: true } | { dir: string | undefined };

/** Options come before the rule, whose own words (`deny bash rm -rf`) may look like options. */
export function parseRulesArgs(argv: string[]): RulesArgs {
  const [command, ...rest] = argv;
  if (command === 'remove') {
    if (rest.length !== 1 || !/^r[1-9][0-9]*$/u.test(rest[0])) throw new UsageError('mino rules remove takes one rule id, such as r3 (mino rules list shows them).');
    return { command, id: rest[0] };
  }
  if (command !== 'list' && command !== 'add') throw new UsageError(`mino rules takes list, add or remove${command === undefined ? '' : `, not "${command}"`}.`);
  let dir: string | undefined;
  let global = false;
  let json = false;
  let index = 0;
  for (; index < rest.length && rest[index].startsWith('--'); index++) {
    const [flag, inline] = rest[index].split(/=(.*)/su, 2);
    if (flag === '--global' && inline === undefined) global = true;
    else if (flag === '--json' && inline === undefined && command === 'list') json = true;
    else if (flag === '--project') dir = inline ?? rest[++index];
    else throw new UsageError(`mino rules ${command} does not take ${rest[index]}.`);
    if (flag === '--project' && (dir === undefined || dir === '')) throw new UsageError('--project takes a folder.');
  }
  if (global && dir !== undefined) throw new UsageError('Give --project DIR or --global, not both.');
  const where: Where = global ? { global: true } : { dir };
  const words = rest.slice(index);
  if (command === 'list') {
    if (words.length > 0) throw new UsageError(`mino rules list takes no rule ("${words.join(' ')}").`);
    return { command, where, json };
  }
  if (words.length === 0) throw new UsageError('mino rules add needs a RULE, such as: mino rules add allow bash npm test');
  return { command, where, words };
}

export async function runRules(args: RulesArgs, rawIo: CommandIo): Promise<number> {
  const io = escapedIo(rawIo);
  const stdout = args.command === 'list' && args.json ? rawIo.stdout : terminalOutput(rawIo.stdout);
  const fail = failWith(io);
  return inMinoHome(io, fail, async (homeDir) => {
    if (args.command === 'remove') {
      const removed = await removePersonRule(homeDir, args.id);
      if (removed === null) return fail(`There is no rule ${args.id}. mino rules list shows the rules and their ids.`, EXIT.failed);
      stdout.write(`Removed ${ruleLine(removed)}\n`);
      return EXIT.completed;
    }
    const scope = await scopeOf(args.where, homeDir);
    if (typeof scope === 'string') return fail(scope, EXIT.usage);
    return args.command === 'list' ? listRules(homeDir, scope, args.json, stdout) : addRule(homeDir, scope, args.words, stdout, fail);
  });
}

async function scopeOf(where: Where, homeDir: string): Promise<RuleScope | string> {
  if ('global' in where) return where;
  let dir: string;
  try {
    dir = path.resolve(process.cwd(), where.dir ?? '.');
  } catch {
    // ignore: the current directory is gone; the person is told what to do instead
    return 'The current directory no longer exists. Change to your project folder, or give --project with a full path.';
  }
  const project = await checkProjectDir(dir, homeDir);
  return project.ok ? { project: project.projectDir } : project.reason;
}

async function listRules(homeDir: string, scope: RuleScope, json: boolean, stdout: CommandIo['stdout']): Promise<number> {
  const rules = await rulesInScope(homeDir, scope);
  if (json) {
    for (const rule of rules) stdout.write(`${jsonLine(ruleJson(rule))}\n`);
  } else {
    stdout.write(rules.length === 0 ? `No rules apply ${'global' in scope ? 'to every project' : `in ${scope.project}`}.\n` : `${rules.map(ruleLine).join('\n')}\n`);
  }
  return EXIT.completed;
}

async function addRule(homeDir: string, scope: RuleScope, words: string[], stdout: CommandIo['stdout'], fail: Fail): Promise<number> {
  const added = await addPersonRule(homeDir, scope, words, PERSON_RULE_GRAMMAR, new Date());
  if (!added.ok) return fail(`${added.reason} Nothing was saved.`, EXIT.usage);
  stdout.write(`Added ${ruleLine(added.rule)}\n`);
  return EXIT.completed;
}

function ruleLine(rule: Rule): string {
  return `${rule.id}  ${rule.text}  (${'global' in rule.scope ? 'global' : rule.scope.project})`;
}

function ruleJson(rule: Rule) {
  return { type: 'rule', id: rule.id, text: rule.text, scope: 'global' in rule.scope ? 'global' : 'project', ...('project' in rule.scope ? { project: rule.scope.project } : {}), added: rule.added };
}
