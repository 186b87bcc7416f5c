// Undo and redo: the person's own act, never the model's, so no approval is
// asked (the front end confirms the list of files first). Each change is put
// back only if the file is still exactly what the turn (or the last redo)
// left; anything changed since is left alone and reported with its diff. The
// reversal is recorded before a file is touched and after each file, so one
// interrupted by a crash or a stop is finished later without doing a file twice.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { createFileAtomically, replaceFileAtomically } from '../fs/atomicWrite';
import { checkDirectoryChain } from '../fs/confinedOpen';
import { errorCode } from '../fs/fsResult';
import { normalizeProjectPath, resolveInProject, type ProjectPath } from '../fs/projectPath';
import { readProjectText, sha256Hex } from '../fs/readText';
import { lockFileForWrite } from '../locks/fileLock';
import type { ChangeImage } from '../sessions/records';
import type { SessionLog } from '../sessions/sessionLog';
import { unifiedDiff } from '../tools/unifiedDiff';
import { DROPPED_NOTE } from './changeSummary';
import { keptContent } from './preImageStore';
import type { OpenReversal, SessionChanges, TrackedChange } from './turnChanges';

export type ReversalAction = 'undo' | 'redo';

export interface ReversedFile {
  path: string;
  outcome: 'restored' | 'skipped';
  /** Why a file was skipped. */
  reason?: string;
  /** For a file changed since: from what the turn left to what is there now. */
  diff?: string;
}

export interface ReversalReport {
  action: ReversalAction;
  turn: number | null;
  files: ReversedFile[];
  /** Files of an earlier reversal that was interrupted and has now been finished. */
  resumed: ReversedFile[];
}

export interface ReversalOptions {
  homeDir: string;
  projectDir: string;
  log: SessionLog;
  changes: SessionChanges;
  action: ReversalAction;
  /** Default: the last turn with something to undo (or redo). */
  turn?: number;
  /** Only this call's changes (Undo this change). */
  callId?: string;
  /** Stops between files; what is done stays recorded, the rest is finished by the next reversal. */
  signal?: AbortSignal;
}

export class NothingToReverseError extends Error {
  override name = 'NothingToReverseError';
}

/** The changes a reversal would handle, in the order it handles them, without touching anything. */
export function planReversal(changes: SessionChanges, action: ReversalAction, turn?: number, callId?: string): { turn: number; changes: TrackedChange[] } {
  const wanted = action === 'undo' ? 'applied' : 'undone';
  const candidates = changes.turns.filter((t) => (turn === undefined || t.turn === turn) && t.changes.some((c) => c.state === wanted && (callId === undefined || c.callId === callId)));
  const chosen = candidates.at(-1);
  if (!chosen) {
    const what = callId !== undefined ? `call ${callId}` : turn !== undefined ? `turn ${turn}` : 'this session';
    throw new NothingToReverseError(`Nothing to ${action} in ${what}: ${action === 'undo' ? 'no file change by Mino\'s file tools is in place' : 'no undone change to redo'}.`);
  }
  const selected = chosen.changes.filter((c) => c.state === wanted && (callId === undefined || c.callId === callId));
  // Undo walks back from the last change; redo replays them in their order.
  return { turn: chosen.turn, changes: action === 'undo' ? selected.reverse() : selected };
}

export async function reverseChanges(options: ReversalOptions): Promise<ReversalReport> {
  const byId = new Map(options.changes.turns.flatMap((t) => t.changes.map((c) => [c.changeId, c] as const)));
  // An interrupted reversal is finished first; its steps update the same change objects the plan reads.
  const resumed = options.changes.open ? await finish(options, options.changes.open, byId) : [];
  let plan;
  try {
    plan = planReversal(options.changes, options.action, options.turn, options.callId);
  } catch (error) {
    if (error instanceof NothingToReverseError && options.changes.open) return { action: options.action, turn: null, files: [], resumed };
    throw error;
  }
  const reversal: OpenReversal = { reversalId: randomUUID(), action: options.action, changeIds: plan.changes.map((c) => c.changeId), done: new Set() };
  await options.log.append({ type: 'reversal_start', reversal_id: reversal.reversalId, action: reversal.action, change_ids: reversal.changeIds });
  const files = await finish(options, reversal, byId);
  return { action: options.action, turn: plan.turn, files, resumed };
}

/** Handles each change of `reversal` not yet done, records each, then records the end (unless stopped first). */
async function finish(options: ReversalOptions, reversal: OpenReversal, byId: Map<string, TrackedChange>): Promise<ReversedFile[]> {
  const files: ReversedFile[] = [];
  for (const changeId of reversal.changeIds) {
    if (reversal.done.has(changeId)) continue;
    if (options.signal?.aborted) return files;
    const change = byId.get(changeId);
    const file: ReversedFile = change ? await reverseOne(options, change, reversal.action) : { path: '(unknown)', outcome: 'skipped', reason: 'the change is not in the log' };
    await options.log.append({
      type: 'reversal_step',
      reversal_id: reversal.reversalId,
      change_id: changeId,
      outcome: file.outcome,
      ...(file.reason !== undefined ? { reason: file.reason } : {}),
    });
    reversal.done.add(changeId);
    if (change && file.outcome === 'restored') change.state = reversal.action === 'undo' ? 'undone' : 'applied';
    files.push(file);
  }
  await options.log.append({ type: 'reversal_end', reversal_id: reversal.reversalId });
  return files;
}

type Current = { kind: 'absent' } | { kind: 'directory' } | { kind: 'file'; text: string; mode: number } | { kind: 'other'; reason: string };

async function reverseOne(options: ReversalOptions, change: TrackedChange, action: ReversalAction): Promise<ReversedFile> {
  const from = action === 'undo' ? change.after : change.before;
  const to = action === 'undo' ? change.before : change.after;
  const normalized = normalizeProjectPath(change.path);
  if (!normalized.ok) return skipped(change.path, normalized.reason);
  const p = normalized.path;
  const root = options.projectDir;
  const toText = to.kind === 'file' ? await keptContent(options.homeDir, options.log.id, to.sha256) : '';
  const fromText = from.kind === 'file' ? await keptContent(options.homeDir, options.log.id, from.sha256) : '';
  if (toText === null) return skipped(p, DROPPED_NOTE);

  const lock = await lockFileForWrite(options.homeDir, root, p);
  if (!lock.ok) return skipped(p, lock.reason);
  try {
    const chain = checkDirectoryChain(root, p);
    if (!chain.ok && to.kind !== 'absent') return skipped(p, chain.reason);
    const current = currentState(root, p);
    if (current.kind === 'other') return skipped(p, current.reason);
    // Already as it should be (the step may have been done just before a crash): nothing to write.
    if (matches(current, to)) return { path: p, outcome: 'restored' };
    if (!matches(current, from)) {
      const now = current.kind === 'file' ? current.text : '';
      const diff = fromText !== null && current.kind !== 'directory' ? unifiedDiff(p, fromText, now) : undefined;
      return { ...skipped(p, `it changed after ${action === 'undo' ? 'the turn' : 'the undo'}, so it was left as it is`), ...(diff ? { diff } : {}) };
    }
    return await restore(root, p, current, to, toText);
  } finally {
    lock.release();
  }
}

function currentState(root: string, p: ProjectPath): Current {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(resolveInProject(root, p));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'absent' };
    return { kind: 'other', reason: `it could not be checked (${errorCode(error) ?? String(error)})` };
  }
  if (stat.isDirectory()) return { kind: 'directory' };
  const read = readProjectText(root, p);
  if (!read.ok) return { kind: 'other', reason: read.reason };
  return { kind: 'file', text: read.file.text, mode: read.file.mode };
}

function matches(current: Current, image: ChangeImage): boolean {
  if (image.kind === 'file') return current.kind === 'file' && sha256Hex(current.text) === image.sha256;
  return current.kind === image.kind;
}

async function restore(root: string, p: ProjectPath, current: Current, to: ChangeImage, toText: string): Promise<ReversedFile> {
  const absPath = resolveInProject(root, p);
  try {
    if (to.kind === 'absent') {
      if (current.kind === 'directory') fs.rmdirSync(absPath);
      else fs.unlinkSync(absPath);
      return { path: p, outcome: 'restored' };
    }
    if (to.kind === 'directory') {
      fs.mkdirSync(absPath);
      return { path: p, outcome: 'restored' };
    }
    if (current.kind === 'file') {
      const written = await replaceFileAtomically(root, p, toText, to.mode ?? current.mode);
      return written.ok ? { path: p, outcome: 'restored' } : skipped(p, written.reason);
    }
    const created = await createFileAtomically(root, p, toText);
    if (!created.ok) return skipped(p, created.reason);
    if (to.mode !== undefined) fs.chmodSync(absPath, to.mode);
    return { path: p, outcome: 'restored' };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return skipped(p, 'the directory is not empty any more, so it was left as it is');
    return skipped(p, `it could not be changed (${code ?? String(error)})`);
  }
}

function skipped(path: string, reason: string): ReversedFile {
  return { path, outcome: 'skipped', reason };
}
