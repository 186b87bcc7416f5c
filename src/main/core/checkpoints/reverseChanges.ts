// Undo and redo: the person's own act, never the model's, so no approval is
// asked (the front end confirms the list of files first). Each change is put
// back only if the file is still exactly what the turn (or the last redo)
// left; anything changed since is left alone and reported with its diff. The
// reversal is recorded before a file is touched and after each file, so one
// interrupted by a crash or a stop is finished later without doing a file twice.
//
// A file is written through a temporary file next to it (fs/atomicWrite.ts),
// and a kill between its creation and its rename leaves it in the project.
// So that the log names it before it exists, its name is made from the
// reversal's id and the change's (reversalTempName): the reversal_start
// record, saved before any file is touched, holds both. An interrupted
// reversal's leftovers are removed before anything else is done
// (removeReversalLeftovers), by the next undo or redo of the session.
import { isUtf8 } from 'node:buffer';
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { isTemporaryName, planTemporaryFile, type PlannedTemporaryFile } from '../fs/atomicWrite';
import { checkDirectoryChain } from '../fs/confinedOpen';
import { entryOf, openDirectoryRoute, splitParent } from '../fs/directoryRoute';
import { errorCode } from '../fs/fsResult';
import { normalizeProjectPath, type ProjectPath } from '../fs/projectPath';
import { lockFileForWrite } from '../locks/fileLock';
import type { ChangeImage } from '../sessions/records';
import type { SessionLog } from '../sessions/sessionLog';
import { unifiedDiff } from '../tools/unifiedDiff';
import { DROPPED_NOTE } from './changeSummary';
import { keptContent, keptContentBytes } from './preImageStore';
import { currentState, matches, restore, type Current } from './restoreEntry';
import type { OpenReversal, SessionChanges, TrackedChange } from './turnChanges';
import { errorText, log } from '../log/log';

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
    throw new NothingToReverseError(`Nothing to ${action} in ${what}: ${action === 'undo' ? 'no change by Mino\'s file tools or a captured command is in place' : 'no undone change to redo'}.`);
  }
  const selected = chosen.changes.filter((c) => c.state === wanted && (callId === undefined || c.callId === callId));
  // Undo walks back from the last change; redo replays them in their order.
  return { turn: chosen.turn, changes: action === 'undo' ? selected.reverse() : selected };
}

export async function reverseChanges(options: ReversalOptions): Promise<ReversalReport> {
  const byId = changesById(options.changes);
  // What a kill in an interrupted reversal left is removed first, also when this one is stopped at once: its
  // temporary files have the names the reversal would use again for the same changes.
  if (options.changes.open) {
    const removed = removeLeftovers(options.projectDir, options.changes.open, byId);
    if (removed.length > 0) log.info('reversal.leftovers_removed', { session: options.log.id, paths: removed });
  }
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

/**
 * Removes the temporary files the interrupted reversal of `changes` (if any)
 * may have left in the project; returns their project paths. For a session
 * being resumed; the next undo or redo does the same before anything else.
 */
export function removeReversalLeftovers(projectDir: string, changes: SessionChanges): string[] {
  return changes.open ? removeLeftovers(projectDir, changes.open, changesById(changes)) : [];
}

/**
 * The name of the temporary file through which reversal `reversalId` writes
 * change `changeId` to `fileName`: shaped as atomicWrite.ts shapes its names
 * (so it is recognised as Mino's anywhere), with a digest of the two ids
 * where those have random characters. No other write makes this name.
 */
export function reversalTempName(reversalId: string, changeId: string, fileName: string): string {
  const digest = createHash('sha256').update(`${reversalId}\0${changeId}`).digest('hex').slice(0, 12);
  // The stem is shortened as atomicWrite.ts shortens it, to stay within the usual 255-byte name limit.
  return `.${fileName.slice(0, 100)}.mino-${digest}.tmp`;
}

function changesById(changes: SessionChanges): Map<string, TrackedChange> {
  return new Map(changes.turns.flatMap((t) => t.changes.map((c) => [c.changeId, c] as const)));
}

/**
 * For each change of `reversal` (done or not: a kill after the rename but
 * before the step was saved leaves none, one before it leaves the temporary
 * file), removes the file with the reversal's temporary name next to the
 * changed path, if it is there and a regular file. The name is this
 * reversal's alone, so nothing else can be removed.
 */
function removeLeftovers(root: string, reversal: OpenReversal, byId: Map<string, TrackedChange>): string[] {
  const removed: string[] = [];
  for (const changeId of reversal.changeIds) {
    const change = byId.get(changeId);
    const normalized = change ? normalizeProjectPath(change.path) : null;
    if (!normalized?.ok) continue;
    const { dir, name } = splitParent(normalized.path);
    const tempName = reversalTempName(reversal.reversalId, changeId, name);
    if (!isTemporaryName(tempName)) continue;
    // The directory is gone or no longer confined: nothing of this write can be reached safely.
    const opened = openDirectoryRoute(root, dir);
    if (!opened.ok) continue;
    const route = opened.route;
    try {
      const stat = fs.lstatSync(route.at(tempName));
      if (!stat.isFile() || route.verify()) continue;
      fs.unlinkSync(route.at(tempName));
      removed.push(entryOf(dir, tempName));
    } catch (error) {
      // ignore: not there is the usual case (the write was done or never begun); anything else leaves it, named in the trail
      if (errorCode(error) !== 'ENOENT') log.warn('reversal.leftover_not_removed', { path: entryOf(dir, tempName), error: errorText(error) });
    } finally {
      route.close();
    }
  }
  return removed;
}

/** Handles each change of `reversal` not yet done, records each, then records the end (unless stopped first). */
async function finish(options: ReversalOptions, reversal: OpenReversal, byId: Map<string, TrackedChange>): Promise<ReversedFile[]> {
  const files: ReversedFile[] = [];
  for (const changeId of reversal.changeIds) {
    if (reversal.done.has(changeId)) continue;
    if (options.signal?.aborted) return files;
    const change = byId.get(changeId);
    const file: ReversedFile = change ? await reverseOne(options, change, reversal) : { path: '(unknown)', outcome: 'skipped', reason: 'the change is not in the log' };
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

async function reverseOne(options: ReversalOptions, change: TrackedChange, reversal: OpenReversal): Promise<ReversedFile> {
  const action = reversal.action;
  const from = action === 'undo' ? change.after : change.before;
  const to = action === 'undo' ? change.before : change.after;
  const normalized = normalizeProjectPath(change.path);
  if (!normalized.ok) return skipped(change.path, normalized.reason);
  const p = normalized.path;
  const root = options.projectDir;
  const toBytes = to.kind === 'file' ? await keptContentBytes(options.homeDir, options.log.id, to.sha256) : Buffer.alloc(0);
  if (toBytes === null) return skipped(p, DROPPED_NOTE);

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
      const diff = await diffSince(options, p, from, current);
      return { ...skipped(p, `it changed after ${action === 'undo' ? 'the turn' : 'the undo'}, so it was left as it is`), ...(diff ? { diff } : {}) };
    }
    const planned = to.kind === 'file' ? planTemporaryFile(root, p) : null;
    if (planned && !planned.ok) return skipped(p, planned.reason);
    const temp: PlannedTemporaryFile = { path: entryOf(splitParent(p).dir, reversalTempName(reversal.reversalId, change.changeId, splitParent(p).name)), dir: planned?.temp.dir ?? '' };
    const restored = await restore(root, p, current, to, toBytes, temp);
    return restored.ok ? { path: p, outcome: 'restored' } : skipped(p, restored.reason);
  } finally {
    lock.release();
  }
}

/** From what the change left to what is there now, for a text file a reversal left alone; undefined when either is not text. */
async function diffSince(options: ReversalOptions, p: ProjectPath, from: ChangeImage, current: Current): Promise<string | undefined> {
  if (current.kind === 'directory' || current.kind === 'symlink' || from.kind === 'directory' || from.kind === 'symlink') return undefined;
  const fromText = from.kind === 'file' ? await keptContent(options.homeDir, options.log.id, from.sha256) : '';
  const now = current.kind === 'file' ? current.bytes : Buffer.alloc(0);
  if (fromText === null || !isUtf8(now) || now.includes(0)) return undefined;
  return unifiedDiff(p, fromText, now.toString('utf8'));
}

function skipped(path: string, reason: string): ReversedFile {
  return { path, outcome: 'skipped', reason };
}
