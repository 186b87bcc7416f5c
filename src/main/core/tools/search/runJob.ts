// The work of one search_files or find_files call as a worker thread runs
// it: walk (walk.ts), read and match (matchLines.ts). A search is shared
// among workers (each takes its part of the walk) and its answer is put
// together on the main thread (mergeParts.ts); find_files is one worker's.
import * as fs from 'node:fs';
import { displayName } from '../../fs/listDirectory';
import { findHits } from './matchLines';
import type { FindJob, SearchJob, SearchPart, WorkerReply, WorkerRequest } from './searchJob';
import { MAX_FILE_BYTES, MAX_OUTPUT_CHARS } from './searchJob';
import { findSummary } from './summary';
import { codeOf, FILE_FLAGS, noSkips, walkScope, WHOLE_WALK, type FoundFile, type SkipCounts, type WalkPart } from './walk';

export function runRequest(request: WorkerRequest, tick: () => void): WorkerReply {
  return request.job.kind === 'search' ? searchPart(request.job, request.part, tick) : { kind: 'reply', reply: find(request.job, tick) };
}

// One buffer for every file: a byte more than the cap shows a file too large to search.
let readBuffer: Buffer | null = null;

type FileBytes = { ok: true; bytes: Buffer } | { ok: false; skip: keyof SkipCounts };

/**
 * The bytes of a found file (a view of the shared buffer, good until the next
 * read), or why it is skipped: not readable, larger than the cap, or binary
 * (a NUL byte, as ripgrep judges; anywhere in the file, not only in its
 * first 8 KiB, so no binary content can reach the model).
 */
function readFound(file: FoundFile): FileBytes {
  readBuffer ??= Buffer.allocUnsafe(MAX_FILE_BYTES + 1);
  let fd: number;
  try {
    fd = fs.openSync(file.route, FILE_FLAGS);
  } catch (error) {
    // A file swapped for a link since it was listed is refused by O_NOFOLLOW.
    return { ok: false, skip: codeOf(error) === 'ELOOP' ? 'links' : 'unreadable' };
  }
  let length: number;
  try {
    // One read and no fstat: a regular file gives all it has up to the length asked (a short read is
    // its end), and asking one byte past the cap tells the size that matters.
    length = fs.readSync(fd, readBuffer, 0, readBuffer.length, null);
  } catch {
    // ignore: counted as unreadable (EISDIR for a file swapped for a folder, EIO); the search goes on
    return { ok: false, skip: 'unreadable' };
  } finally {
    fs.closeSync(fd);
  }
  if (length > MAX_FILE_BYTES) return { ok: false, skip: 'tooLarge' };
  const bytes = readBuffer.subarray(0, length);
  if (bytes.includes(0)) return { ok: false, skip: 'binary' };
  return { ok: true, bytes };
}

/**
 * This worker's part of a search. It stops once it holds more matching lines
 * than max_results, or more text than an answer may have: the answer is made
 * of the first files in walk order, so nothing after that can be in it.
 */
function searchPart(job: SearchJob, part: WalkPart, tick: () => void): WorkerReply {
  const re = new RegExp(job.source, job.flags);
  // A file without the text every match holds is searched by one scan of its bytes (see requiredLiteral).
  const needle = job.literal === null ? null : Buffer.from(job.literal);
  const result: SearchPart = { kind: 'search-part', files: [], searched: 0, skipped: noSkips(), stop: null };
  let matches = 0;
  let chars = 0;
  const walked = walkScope(job, part, result.skipped, tick, (file) => {
    const read = readFound(file);
    tick();
    if (!read.ok) {
      result.skipped[read.skip]++;
      return true;
    }
    result.searched++;
    if (needle !== null && !read.bytes.includes(needle)) return true;
    const hits = findHits(read.bytes.toString('utf8'), re, job.context, job.maxResults - matches);
    if (hits.matches.length === 0 && !hits.more) return true;
    const path = displayName(file.rel);
    for (const line of hits.lines.values()) chars += path.length + line.length + 8;
    if (chars > MAX_OUTPUT_CHARS) {
      result.stop = { order: file.order, reason: 'output' };
      return false;
    }
    result.files.push({ order: file.order, path, hits });
    matches += hits.matches.length;
    if (hits.more) result.stop = { order: file.order + 1, reason: 'max_results' };
    return !hits.more;
  });
  return walked.ok ? result : { kind: 'reply', reply: { status: 'invalid_arguments', output: walked.reason } };
}

function find(job: FindJob, tick: () => void): { status: 'completed' | 'invalid_arguments'; output: string } {
  const skipped = noSkips();
  const found: { rel: string; mtimeMs: number }[] = [];
  const walked = walkScope(job, WHOLE_WALK, skipped, tick, (file) => {
    let mtimeMs = 0;
    if (job.order === 'newest') {
      try {
        mtimeMs = fs.lstatSync(file.route).mtimeMs;
      } catch {
        // ignore: counted as unreadable; a file removed since it was listed is no answer
        skipped.unreadable++;
        return true;
      }
    }
    found.push({ rel: file.rel, mtimeMs });
    return true;
  });
  if (!walked.ok) return { status: 'invalid_arguments', output: walked.reason };
  // Walked in name order already; newest first keeps name order among equal times (a stable sort).
  if (job.order === 'newest') found.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const shown = found.slice(0, job.maxResults).map((file) => displayName(file.rel));
  const summary = findSummary({ found: found.length, shown: shown.length, glob: job.glob ?? '*', order: job.order, skipped });
  return { status: 'completed', output: [...shown, summary].join('\n') };
}
