// The rules that apply in one project, read per call so a rule added in
// another window (or by `mino rules add`) applies to the next call. Cheap:
// the file is parsed again only when its stat changed.
import type { ActiveRule } from './rules';
import { readRulesFile, rulesFileStamp, rulesFor, type RulesFile } from './rulesFile';
import type { GrammarOptions } from './ruleGrammar';

// Stored rules were checked when added; on reading, any tool name is accepted
// for `off`, so a rule for an MCP server that is not connected now still holds.
const READING: GrammarOptions = { knownTools: [], isMcpToolName: () => true };

const files = new Map<string, { stamp: string; file: RulesFile }>();

/** The rules for `projectDir` (its real path). Throws RulesFileError when the file exists and cannot be used. */
export async function activeRulesFor(homeDir: string, projectDir: string): Promise<{ rules: ActiveRule[]; problems: string[] }> {
  // Stamped before reading: a change after the stat gives a new stamp next time, so it is never missed.
  const stamp = await rulesFileStamp(homeDir);
  let cached = files.get(homeDir);
  if (cached?.stamp !== stamp) {
    cached = { stamp, file: await readRulesFile(homeDir) };
    files.set(homeDir, cached);
  }
  return rulesFor(cached.file, projectDir, READING);
}

/** The rules as last read, without reading: for what only numbers asks (askPositions). Empty before the first read. */
export function lastReadRulesFor(homeDir: string, projectDir: string): ActiveRule[] {
  const cached = files.get(homeDir);
  return cached ? rulesFor(cached.file, projectDir, READING).rules : [];
}
