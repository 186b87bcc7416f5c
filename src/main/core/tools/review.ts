// What a file-writing ask offers beyond its confirmation: the change by hunk
// for the person to review (the diff the dialog shows and the spans that
// rebuild any choice of its hunks), and the target to watch while the ask is
// open, so a file changed meanwhile is said before the person can approve.
import * as path from 'node:path';
import type { ReviewSubject } from '../../../shared/review';
import { resolveInProject } from '../fs/projectPath';
import { reviewHunks, unifiedPatch } from './unifiedDiff';
import { formatPatch } from 'diff';
import type { ProjectPath, WatchedTarget } from './types';

/** The confirmation's diff of `before` to `proposed`, and the same change by hunk (absent when it cannot be split). */
export function reviewedChange(p: ProjectPath, before: string, proposed: string): { diff: string; review?: ReviewSubject } {
  const patch = unifiedPatch(p, before, proposed);
  const hunks = reviewHunks(before, proposed, patch);
  return { diff: formatPatch(patch), ...(hunks && hunks.length > 0 ? { review: { path: p, before, proposed, hunks } } : {}) };
}

/** The target of an ask, watched through its folder (a rename over the file replaces what a watch of the file would follow). */
export function watchedTarget(root: string, p: ProjectPath, isCurrent: () => boolean): WatchedTarget {
  const absolute = resolveInProject(root, p);
  return { path: p, dir: path.dirname(absolute), name: path.basename(absolute), isCurrent };
}
