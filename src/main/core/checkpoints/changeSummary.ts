// A turn's changes as a person reviews them: one entry per file (created,
// edited, overwritten, directory created), lines added and removed, and the
// combined diff from before the turn to after it, read from the kept contents.
import { unifiedDiff } from '../tools/unifiedDiff';
import type { ChangeImage } from '../sessions/records';
import { keptContent } from './preImageStore';
import type { TrackedChange, TurnChanges } from './turnChanges';

export type FileAction = 'created' | 'edited' | 'overwritten' | 'created directory';

export interface FileChangeSummary {
  path: string;
  action: FileAction;
  added: number;
  removed: number;
  /** From the state before the turn to the state after it; null for a directory, or when a content was dropped. */
  diff: string | null;
  /** `undone`: every change to this file in the turn is undone now. */
  state: 'applied' | 'undone';
  /** The calls that changed it in this turn, in order. */
  callIds: string[];
  /** Set when a kept content was dropped under the size cap: this file's change cannot be undone. */
  notUndoable?: string;
}

export interface TurnSummary {
  turn: number;
  question: string;
  files: FileChangeSummary[];
  untrackedCalls: number;
  /** "This turn also ran 2 commands whose changes are not tracked", or null. */
  untrackedNote: string | null;
}

export const DROPPED_NOTE = 'its copy from before the turn was dropped to keep ~/.mino/checkpoints under the size cap, so it cannot be undone';

export async function summarizeTurn(homeDir: string, sessionId: string, turn: TurnChanges): Promise<TurnSummary> {
  const byPath = new Map<string, TrackedChange[]>();
  for (const change of turn.changes) byPath.set(change.path, [...(byPath.get(change.path) ?? []), change]);
  const files: FileChangeSummary[] = [];
  for (const [path, changes] of byPath) {
    const first = changes[0]!.before;
    const last = changes.at(-1)!.after;
    const state = changes.every((c) => c.state === 'undone') ? 'undone' : 'applied';
    const action = actionOf(first, last, changes);
    const beforeText = await textOf(homeDir, sessionId, first);
    const afterText = await textOf(homeDir, sessionId, last);
    const dropped = beforeText === null || afterText === null || (await anyDropped(homeDir, sessionId, changes));
    const diff = last.kind === 'directory' || beforeText === null || afterText === null ? null : unifiedDiff(path, beforeText, afterText);
    const { added, removed } = diff === null ? { added: 0, removed: 0 } : countLines(diff);
    const callIds = [...new Set(changes.map((c) => c.callId))];
    files.push({ path, action, added, removed, diff, state, callIds, ...(dropped ? { notUndoable: DROPPED_NOTE } : {}) });
  }
  return { turn: turn.turn, question: turn.question, files, untrackedCalls: turn.untrackedCalls, untrackedNote: untrackedNote(turn.untrackedCalls) };
}

export function untrackedNote(count: number): string | null {
  if (count === 0) return null;
  return `This turn also ran ${count === 1 ? '1 command' : `${count} commands`} (bash or MCP) whose changes are not tracked and cannot be undone.`;
}

function actionOf(first: ChangeImage, last: ChangeImage, changes: readonly TrackedChange[]): FileAction {
  if (last.kind === 'directory') return 'created directory';
  if (first.kind === 'absent') return 'created';
  return changes.every((c) => c.toolName === 'edit_file') ? 'edited' : 'overwritten';
}

/** The text an image stands for: '' for nothing, the kept content for a file, null when it was dropped. */
async function textOf(homeDir: string, sessionId: string, image: ChangeImage): Promise<string | null> {
  if (image.kind === 'absent' || image.kind === 'directory') return '';
  return keptContent(homeDir, sessionId, image.sha256);
}

async function anyDropped(homeDir: string, sessionId: string, changes: readonly TrackedChange[]): Promise<boolean> {
  for (const change of changes) {
    for (const image of [change.before, change.after]) {
      if (image.kind === 'file' && (await keptContent(homeDir, sessionId, image.sha256)) === null) return true;
    }
  }
  return false;
}

function countLines(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added += 1;
    else if (line.startsWith('-')) removed += 1;
  }
  return { added, removed };
}
