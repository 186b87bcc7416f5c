// The session list: one summary per saved log, newest activity first.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionSummary } from '../../../shared/domain';
import { minoPaths } from '../config/minoHome';
import { readPrivateFile } from '../config/readPrivateFile';
import { isSessionId } from './ids';
import { lineRefs, parseLine, splitLog } from './logLines';
import { lastTitle, MAX_SESSION_FILE_BYTES, recordTime } from './load';
import { errorText, log } from '../log/log';
import { errorCode } from '../../../shared/errors';
import { sessionLabel } from '../../../shared/sessionTitle';

/**
 * Sessions of one project (compared by the exact real path string saved in
 * each header), or of all projects. A log whose header cannot be read is left
 * out; opening it directly reports why.
 */
export async function listSessions(homeDir: string, projectDir?: string): Promise<SessionSummary[]> {
  const dir = minoPaths(homeDir).sessions;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const wanted = projectDir === undefined ? undefined : await realPathOrSelf(projectDir);
  const summaries: SessionSummary[] = [];
  for (const name of names) {
    const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
    if (!isSessionId(id)) continue;
    const summary = await summarize(path.join(dir, name), id);
    if (summary && (wanted === undefined || summary.projectDir === wanted)) summaries.push(summary);
  }
  nameForkOrigins(summaries);
  return summaries.sort((a, b) => (a.updatedAt === b.updatedAt ? a.id.localeCompare(b.id) : a.updatedAt < b.updatedAt ? 1 : -1));
}

async function summarize(file: string, id: string): Promise<SessionSummary | undefined> {
  let content: Buffer | null;
  try {
    // A FIFO or device named like a session is skipped, as an unreadable file is, rather than waited on.
    content = await readPrivateFile(file, MAX_SESSION_FILE_BYTES);
  } catch (error) {
    // One unreadable session must not hide the others from the list.
    log.warn('session.list_skipped', { file, error: errorText(error) });
    return undefined;
  }
  if (content === null) return undefined;
  const lines = splitLog(content);
  const first = lines[0] && parseLine(lines[0].text);
  if (!first || !first.ok || first.record.type !== 'session' || first.record.id !== id) {
    log.warn('session.list_skipped', { file, error: 'the first line is not this session\'s header' });
    return undefined;
  }
  const header = first.record;
  // Only the first prompt and the last good record matter, so read from each end and stop early.
  let firstPrompt = '';
  for (const line of lines.slice(1)) {
    if (!line.text.includes('"user"')) continue;
    const parsed = parseLine(line.text);
    if (parsed.ok && parsed.record.type === 'user') {
      firstPrompt = parsed.record.text;
      break;
    }
  }
  let updatedAt = header.createdAt;
  for (let index = lines.length - 1; index > 0; index--) {
    const parsed = parseLine(lines[index]!.text);
    if (parsed.ok) {
      updatedAt = recordTime(parsed.record);
      break;
    }
  }
  const summary: SessionSummary = { id, projectDir: header.projectDir, firstPrompt, title: lastTitle(content, lineRefs(content)), createdAt: header.createdAt, updatedAt };
  return header.forkedFrom ? { ...summary, forkedFrom: { id: header.forkedFrom.session, label: null } } : summary;
}

/** A fork is shown with what its origin is called now; a fork of one of a project's sessions is in the same project. */
function nameForkOrigins(summaries: SessionSummary[]): void {
  const byId = new Map(summaries.map((summary) => [summary.id, summary]));
  for (const summary of summaries) {
    if (!summary.forkedFrom) continue;
    const origin = byId.get(summary.forkedFrom.id);
    summary.forkedFrom = { id: summary.forkedFrom.id, label: origin ? sessionLabel(origin.firstPrompt, origin.title) : null };
  }
}

async function realPathOrSelf(dir: string): Promise<string> {
  try {
    return await fs.realpath(dir);
  } catch {
    return dir;
  }
}
