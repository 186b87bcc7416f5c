// ~/.mino/rules.json: the person's rules, global and per project (keyed by
// the project's real path). Written atomically and private (0600) through
// writePrivateFile; a file that cannot be parsed is reported and never
// overwritten, so nothing the person wrote is lost. Read per call (the
// decision), so it is parsed again only when the file changed.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { MinoHomeError } from '../config/homeErrors';
import { ensurePrivateDir, minoPaths, writePrivateFile } from '../config/minoHome';
import { MiB, readPrivateText } from '../config/readPrivateFile';
import { tryLockFile } from '../locks/lockFile';
import { issuesText } from '../../../shared/zodIssues';
import { errorCode } from '../../../shared/errors';
import type { ActiveRule, Rule, RuleScope } from './rules';
import { parseRule, type GrammarOptions } from './ruleGrammar';

export const RULES_FILE_NAME = 'rules.json';
const MAX_RULES_FILE_BYTES = MiB;

const StoredRuleSchema = z.strictObject({
  id: z.string().regex(/^r[1-9][0-9]*$/u, 'must be "r" and a number'),
  text: z.string().min(1),
  added: z.string(),
});
type StoredRule = z.infer<typeof StoredRuleSchema>;

const RulesFileSchema = z.strictObject({
  version: z.literal(1),
  /** The number of the next rule's id: ids are never reused. */
  next: z.number().int().positive(),
  global: z.array(StoredRuleSchema),
  /** By the project's real path. */
  projects: z.record(z.string(), z.array(StoredRuleSchema)),
});
export type RulesFile = z.infer<typeof RulesFileSchema>;

const EMPTY: RulesFile = { version: 1, next: 1, global: [], projects: {} };

/** rules.json cannot be used; the message names it and says what to do. Nothing was written. */
export class RulesFileError extends MinoHomeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RulesFileError';
  }
}

export function rulesFilePath(homeDir: string): string {
  return path.join(minoPaths(homeDir).root, RULES_FILE_NAME);
}

/** The whole file; empty when there is none. Throws RulesFileError when it exists and cannot be used. */
export async function readRulesFile(homeDir: string): Promise<RulesFile> {
  const file = rulesFilePath(homeDir);
  let text: string | null;
  try {
    text = await readPrivateText(file, MAX_RULES_FILE_BYTES);
  } catch (error) {
    throw new RulesFileError(`${error instanceof Error ? error.message : String(error)} Your rules do not apply until it can be read.`, { cause: error });
  }
  return text === null ? structuredClone(EMPTY) : parseRulesFile(text, file);
}

export function parseRulesFile(text: string, file: string): RulesFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RulesFileError(`${file} is not valid JSON (${(error as Error).message}). Fix or remove the file; Mino does not change it until then, and your rules do not apply.`);
  }
  const parsed = RulesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new RulesFileError(`${file} is not a rules file Mino can read (${issuesText(parsed.error, { quotePaths: true })}). Fix or remove the file; Mino does not change it until then.`);
  }
  return parsed.data;
}

/** Every rule in the file with its scope, global first. */
export function listedRules(file: RulesFile): Rule[] {
  const global = file.global.map((rule) => withScope(rule, { global: true }));
  const projects = Object.entries(file.projects).flatMap(([project, rules]) => rules.map((rule) => withScope(rule, { project })));
  return [...global, ...projects];
}

function withScope(rule: StoredRule, scope: RuleScope): Rule {
  return { id: rule.id, text: rule.text, scope, added: rule.added };
}

/** The rules that apply in `projectDir` (a real path): global and the project's, each parsed. */
export function rulesFor(file: RulesFile, projectDir: string, grammar: GrammarOptions): { rules: ActiveRule[]; problems: string[] } {
  const rules: ActiveRule[] = [];
  const problems: string[] = [];
  for (const rule of listedRules(file)) {
    if ('project' in rule.scope && rule.scope.project !== projectDir) continue;
    const parsed = parseRule(rule.text, grammar);
    if (parsed.ok) rules.push({ ...rule, body: parsed.body });
    else problems.push(`Rule ${rule.id} "${rule.text}": ${parsed.reason}`);
  }
  return { rules, problems };
}

/**
 * Changes the file under a lock in ~/.mino/locks, so two `mino rules`
 * commands cannot each drop the other's rule. `change` returns the new file,
 * or throws (a refused rule): then nothing is written.
 */
export async function changeRulesFile<T>(homeDir: string, change: (file: RulesFile) => { file: RulesFile; result: T }): Promise<T> {
  const paths = minoPaths(homeDir);
  await ensurePrivateDir(paths.root);
  const lock = tryLockFile(path.join(paths.locks, 'rules.lock'), 'mino rules');
  if (!lock.ok) throw new RulesFileError(`Another Mino process (${lock.holder.owner}, pid ${lock.holder.pid}) is changing your rules. Try again in a moment.`);
  try {
    const { file, result } = change(await readRulesFile(homeDir));
    await writePrivateFile(rulesFilePath(homeDir), `${JSON.stringify(file, null, 2)}\n`);
    return result;
  } finally {
    lock.release();
  }
}

/** `file` with `text` (already parsed and canonical) added in `scope`; the new rule. */
export function withRule(file: RulesFile, scope: RuleScope, text: string, added: string): { file: RulesFile; result: Rule } {
  const rule: StoredRule = { id: `r${file.next}`, text, added };
  const next: RulesFile = { ...file, next: file.next + 1 };
  if ('global' in scope) next.global = [...file.global, rule];
  else next.projects = { ...file.projects, [scope.project]: [...(file.projects[scope.project] ?? []), rule] };
  return { file: next, result: withScope(rule, scope) };
}

/** `file` without rule `id`; the removed rule, or null when there is none (nothing changes). */
export function withoutRule(file: RulesFile, id: string): { file: RulesFile; result: Rule | null } {
  const removed = listedRules(file).find((rule) => rule.id === id) ?? null;
  if (removed === null) return { file, result: null };
  const projects = Object.fromEntries(
    Object.entries(file.projects)
      .map(([project, rules]) => [project, rules.filter((rule) => rule.id !== id)] as const)
      .filter(([, rules]) => rules.length > 0),
  );
  return { file: { ...file, global: file.global.filter((rule) => rule.id !== id), projects }, result: removed };
}

/** What a stat says about the file, to know whether a cached parse still holds. */
export async function rulesFileStamp(homeDir: string): Promise<string> {
  try {
    const stat = await fs.stat(rulesFilePath(homeDir), { bigint: true });
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'none';
    throw new RulesFileError(`Cannot read ${rulesFilePath(homeDir)}: ${error instanceof Error ? error.message : String(error)}. Your rules do not apply until it can be read.`, { cause: error });
  }
}
