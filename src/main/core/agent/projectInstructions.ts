// Reads a project's instruction file: AGENTS.md at the project root (the file
// Codex, Cursor, Zed, Cline and Claude Code read), or CLAUDE.md when there is
// no AGENTS.md. It is read as read_file reads: decided first (a protected
// path, or a person's rule that refuses or asks, is not read), then through
// the confined reader (a link, a file with other names or anything but a
// regular file is refused), and only its first 32 KiB, cut at a line. The
// AGENTS.md files in subfolders are found by the search tools' walk (no
// protected entry, no link, nothing .gitignore ignores) and only named.
//
// What it says is guidance from the repository; it reaches the model as text
// and never a decision (see projectGuidance.ts for what the model is told).
import * as fs from 'node:fs';
import { closeReader, openConfinedFile } from '../fs/confinedOpen';
import type { ProjectPath } from '../fs/projectPath';
import { errorText, log as trail } from '../log/log';
import { decideWithCause, factsFor, type DecidedBy } from '../policy/decide';
import { INITIAL_MODE } from '../policy/modes';
import { protectGlobsOf } from '../rules/judge';
import { callRules, ruleInputsFor } from '../rules/callRules';
import { guardProject } from '../tools/fileToolSupport';
import { readFileTool } from '../tools/readFile';
import { runSearchWorker } from '../tools/search/runSearchWorker';

/** The instruction files, by preference: CLAUDE.md is read only when there is no AGENTS.md. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** The most of the file the model is sent: guidance, not a manual. */
export const MAX_PROJECT_INSTRUCTIONS_BYTES = 32 * 1024;
/** The most subfolder AGENTS.md files named to the model. */
export const MAX_NESTED_INSTRUCTIONS = 50;

export interface ProjectInstructions {
  /** The file at the project root: AGENTS.md, or CLAUDE.md. */
  file: string;
  /** What was read (at most 32 KiB, cut at a line); null when the file was not read. */
  text: string | null;
  /** The file is longer than what was read; `size` says how long. */
  truncated: boolean;
  size: number;
  /** Why the file was not read, said to the person (and briefly to the model). */
  notRead?: string;
  /** Subfolder AGENTS.md files, by project path; `moreNested` when there were more than could be named. */
  nested: string[];
  moreNested: boolean;
}

interface Where {
  readonly projectDir: string;
  readonly homeDir: string;
}

/**
 * A stamp of the instruction files as they are now (which exist, and each
 * one's identity, size and times): when it differs from the last one, the
 * files are read again. One lstat each, per turn.
 */
export async function instructionFilesStamp(projectDir: string): Promise<string> {
  const parts = await Promise.all(
    INSTRUCTION_FILES.map(async (name) => {
      try {
        const stat = await fs.promises.lstat(`${projectDir}/${name}`);
        return `${name}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
      } catch {
        // ignore: a file that cannot be looked at is absent as far as the stamp goes; reading it says why
        return `${name}:-`;
      }
    }),
  );
  return parts.join('|');
}

/** The project's instructions, or null when it has neither file. Never throws: what went wrong is `notRead`. */
export async function readProjectInstructions(where: Where): Promise<ProjectInstructions | null> {
  const file = await presentFile(where.projectDir);
  if (file === null) return null;
  try {
    return await readInstructions(where, file);
  } catch (error) {
    trail.warn('project_instructions.read_failed', { project: where.projectDir, error: errorText(error) });
    return { file, text: null, truncated: false, size: 0, notRead: `Mino could not read ${file} (${errorText(error)}).`, nested: [], moreNested: false };
  }
}

/** AGENTS.md when there is an entry of that name (of any kind: a link is refused when read, not passed over), else CLAUDE.md, else null. */
async function presentFile(projectDir: string): Promise<ProjectPath | null> {
  for (const name of INSTRUCTION_FILES) {
    try {
      await fs.promises.lstat(`${projectDir}/${name}`);
      return name as ProjectPath;
    } catch {
      // ignore: not there (or not reachable); the next name is tried
    }
  }
  return null;
}

async function readInstructions(where: Where, file: ProjectPath): Promise<ProjectInstructions> {
  const base = { file, text: null, truncated: false, size: 0, nested: [] as string[], moreNested: false };
  const guard = guardProject(where);
  if (guard) return { ...base, notRead: guard.output };
  const rules = await callRules(where);
  // Unreadable rules might hold a protect rule for the file: it is not read until they can be.
  if (!rules.ok) return { ...base, notRead: `Your rules cannot be read, so Mino did not read ${file} either (a rule might protect it).` };
  // The decision read_file gets for this path in any mode: a protected path, or a person's rule that refuses or asks.
  const args = { path: file };
  const inputs = await ruleInputsFor(rules.rules, { toolName: readFileTool.name, kind: readFileTool.kind, args }, where.projectDir);
  const decided = decideWithCause(factsFor(readFileTool, args), INITIAL_MODE, inputs);
  const nested = await nestedInstructions(where.projectDir, protectGlobsOf(rules.rules));
  if (decided.verdict.decision !== 'allow') return { ...base, ...nested, notRead: refusedText(file, decided.verdict.decision, decided.by) };
  const read = readCapped(where.projectDir, file);
  return read.ok ? { ...base, ...nested, text: read.text, truncated: read.truncated, size: read.size } : { ...base, ...nested, notRead: `${read.reason} Mino did not read it.` };
}

/** Why the decision read_file would get kept the file from being read, for the person. */
function refusedText(file: string, decision: 'ask' | 'deny', by: DecidedBy): string {
  const rules = by.kind === 'rules' ? by.rules.map((rule) => `${rule.id} "${rule.text}"`).join(', ') : '';
  if (by.kind === 'protected') return `${file} is a protected path${by.rule ? ` (your rule ${by.rule.id} "${by.rule.text}")` : ''}, so Mino did not read it.`;
  if (decision === 'ask') return `your rule ${rules} asks before ${file} is read, and nobody is asked when a session starts, so Mino did not read it.`;
  return `${rules ? `your rule ${rules}` : 'the policy'} refuses reading ${file}, so Mino did not read it.`;
}

type CappedRead = { ok: true; text: string; truncated: boolean; size: number } | { ok: false; reason: string };

/** The first 32 KiB of a confined regular file, cut after its last whole line, as UTF-8 text without NUL bytes. */
function readCapped(projectDir: string, file: ProjectPath): CappedRead {
  const opened = openConfinedFile(projectDir, file);
  if (!opened.ok) return { ok: false, reason: opened.reason };
  const { fd, stat } = opened.entry;
  try {
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_PROJECT_INSTRUCTIONS_BYTES));
    let length = 0;
    while (length < buffer.length) {
      const bytesRead = fs.readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const truncated = stat.size > length;
    const bytes = truncated ? wholeLines(buffer.subarray(0, length)) : buffer.subarray(0, length);
    if (bytes.includes(0)) return { ok: false, reason: `${file} holds NUL bytes; it is not text.` };
    try {
      return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), truncated, size: stat.size };
    } catch {
      // ignore: said to the person as the reason the file was not read
      return { ok: false, reason: `${file} is not valid UTF-8 text.` };
    }
  } finally {
    closeReader(fd);
  }
}

/** The bytes up to and including the last newline; with none, up to the end of the last whole UTF-8 character. */
function wholeLines(bytes: Buffer): Buffer {
  const newline = bytes.lastIndexOf(0x0a);
  if (newline !== -1) return bytes.subarray(0, newline + 1);
  // The last character starts at its lead byte; it is whole when all the bytes its lead announces are there.
  let start = bytes.length - 1;
  while (start > 0 && (bytes[start] & 0xc0) === 0x80) start--;
  const lead = bytes[start] ?? 0;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + length <= bytes.length ? bytes : bytes.subarray(0, start);
}

/** AGENTS.md files below the root, as find_files finds them (its worker, its skips), by name order. */
async function nestedInstructions(projectDir: string, protectGlobs: readonly string[]): Promise<{ nested: string[]; moreNested: boolean }> {
  // The root's own file is among the answers, and one more than can be named shows there were more.
  const job = { kind: 'find' as const, projectDir, start: '.', includeIgnored: false, glob: 'AGENTS.md', maxResults: MAX_NESTED_INSTRUCTIONS + 2, order: 'name' as const, protectGlobs };
  const reply = await runSearchWorker(job);
  if (reply.status !== 'completed') {
    trail.warn('project_instructions.walk_failed', { project: projectDir, reason: reply.output });
    return { nested: [], moreNested: false };
  }
  // One path a line, then the summary line.
  const paths = reply.output.split('\n').slice(0, -1).filter((path) => path !== 'AGENTS.md');
  return { nested: paths.slice(0, MAX_NESTED_INSTRUCTIONS), moreNested: paths.length > MAX_NESTED_INSTRUCTIONS };
}
