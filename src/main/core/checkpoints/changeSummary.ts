// A turn's changes as a person reviews them: one entry per path (created,
// edited, overwritten, changed or deleted, a directory created or deleted,
// permissions changed), lines added and removed, and the combined diff from
// before the turn to after it, read from the kept contents. A binary file, a
// symbolic link or a change of permission bits has a line saying what
// changed in place of a diff.
import { isUtf8 } from 'node:buffer';
import type { FileChangeSummaryView } from '../../../shared/changes';
import { unifiedDiff } from '../tools/unifiedDiff';
import type { ChangeImage } from '../sessions/records';
import { keptContentBytes } from './preImageStore';
import type { TrackedChange, TurnChanges } from './turnChanges';

/** What happened to a path over the turn: the file tools' words, and captured bash commands' (changed, deleted, ...). */
export type FileAction = FileChangeSummaryView['action'];

export interface FileChangeSummary {
  path: string;
  action: FileChangeSummaryView['action'];
  added: number;
  removed: number;
  /**
   * From the state before the turn to the state after it; for a binary file,
   * a link or permission bits, a line saying what changed; null for a
   * directory made or removed, or when a content was dropped.
   */
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

/** Text larger than this (before and after together) is not diffed: the diff would take long and show little. */
const MAX_DIFFED_BYTES = 1024 * 1024;

export async function summarizeTurn(homeDir: string, sessionId: string, turn: TurnChanges): Promise<TurnSummary> {
  const byPath = new Map<string, TrackedChange[]>();
  for (const change of turn.changes) byPath.set(change.path, [...(byPath.get(change.path) ?? []), change]);
  const files: FileChangeSummary[] = [];
  for (const [path, changes] of byPath) {
    const first = changes[0]!.before;
    const last = changes.at(-1)!.after;
    const state = changes.every((c) => c.state === 'undone') ? 'undone' : 'applied';
    const before = await contentOf(homeDir, sessionId, first);
    const after = await contentOf(homeDir, sessionId, last);
    const dropped = before === null || after === null || (await anyDropped(homeDir, sessionId, changes));
    const action = actionOf(first, last, changes, before, after);
    const diff = before === null || after === null ? null : diffOf(path, first, last, before, after);
    const { added, removed } = diff === null ? { added: 0, removed: 0 } : countLines(diff);
    const callIds = [...new Set(changes.map((c) => c.callId))];
    files.push({ path, action, added, removed, diff, state, callIds, ...(dropped ? { notUndoable: DROPPED_NOTE } : {}) });
  }
  return { turn: turn.turn, question: turn.question, files, untrackedCalls: turn.untrackedCalls, untrackedNote: untrackedNote(turn.untrackedCalls) };
}

export function untrackedNote(count: number): string | null {
  if (count === 0) return null;
  return `This turn also ran ${count === 1 ? '1 command' : `${count} commands`} (bash or MCP) whose changes were not captured, so they cannot be undone.`;
}

function actionOf(first: ChangeImage, last: ChangeImage, changes: readonly TrackedChange[], before: Buffer | null, after: Buffer | null): FileAction {
  if (last.kind === 'absent') return first.kind === 'directory' ? 'deleted directory' : 'deleted';
  if (last.kind === 'directory') return first.kind === 'directory' ? 'permissions changed' : 'created directory';
  if (first.kind === 'absent') return 'created';
  if (first.kind === 'file' && last.kind === 'file' && before !== null && after !== null && before.equals(after)) return 'permissions changed';
  if (changes.every((c) => c.toolName === 'edit_file')) return 'edited';
  return changes.every((c) => c.toolName === 'bash') && first.kind === last.kind ? 'changed' : 'overwritten';
}

/** The bytes an image stands for: none for nothing, a folder or a link, the kept content for a file, null when it was dropped. */
async function contentOf(homeDir: string, sessionId: string, image: ChangeImage): Promise<Buffer | null> {
  if (image.kind !== 'file') return Buffer.alloc(0);
  return keptContentBytes(homeDir, sessionId, image.sha256);
}

function diffOf(path: string, first: ChangeImage, last: ChangeImage, before: Buffer, after: Buffer): string | null {
  if (first.kind === 'directory' && last.kind === 'directory') return modeLine(first.mode, last.mode);
  if (last.kind === 'directory' || (first.kind === 'directory' && last.kind === 'absent')) return null;
  if (first.kind === 'symlink' || last.kind === 'symlink') return `Symbolic link: ${linkText(first)} → ${linkText(last)}`;
  if (first.kind === 'file' && last.kind === 'file' && before.equals(after)) return modeLine(first.mode, last.mode);
  if (!isText(before) || !isText(after)) return `Binary file, not shown: ${sizeText(first, before)} before, ${sizeText(last, after)} after.`;
  if (before.length + after.length > MAX_DIFFED_BYTES) return `Too large to show as a diff: ${before.length} bytes before, ${after.length} bytes after.`;
  return unifiedDiff(path, before.toString('utf8'), after.toString('utf8'));
}

function isText(bytes: Buffer): boolean {
  return isUtf8(bytes) && !bytes.includes(0);
}

function modeLine(before: number | undefined, after: number | undefined): string {
  const octal = (mode: number | undefined) => (mode === undefined ? 'as made' : mode.toString(8).padStart(3, '0'));
  return `Permissions: ${octal(before)} → ${octal(after)}`;
}

function linkText(image: ChangeImage): string {
  return image.kind === 'symlink' ? `a link to ${image.target}` : image.kind === 'absent' ? 'nothing' : `a ${image.kind}`;
}

function sizeText(image: ChangeImage, bytes: Buffer): string {
  return image.kind === 'absent' ? 'nothing' : `${bytes.length} bytes`;
}

async function anyDropped(homeDir: string, sessionId: string, changes: readonly TrackedChange[]): Promise<boolean> {
  for (const change of changes) {
    for (const image of [change.before, change.after]) {
      if (image.kind === 'file' && (await keptContentBytes(homeDir, sessionId, image.sha256)) === null) return true;
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
