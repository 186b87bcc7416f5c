// A confirmation's unified diff as the hunks the diff view renders. The text
// is read by `diff`'s parsePatch, the library that wrote it (formatPatch in
// core): a hunk's lines are counted from its @@ header, so an added line that
// begins with `++` or `+++` stays an added line and never passes for a file
// header, and the `Index:`/`====` lines are never shown as content.
import { parsePatch } from 'diff';
import type { ChangeData, HunkData } from 'react-diff-view';
import { markHiddenCharacters } from '../../../shared/hiddenCharacters';

export interface DiffModel {
  /** The file's project-relative path, as the patch names it ('' when it names none), hidden characters marked. */
  path: string;
  hunks: HunkData[];
  /** Lines added and removed over all hunks. */
  added: number;
  removed: number;
}

/**
 * Parses `diff`; throws when it is not a unified diff parsePatch can read (the
 * view then shows the text as it is). Hidden characters in the lines are
 * shown as ⟨U+XXXX⟩ marks, as everywhere else a confirmation is shown.
 */
export function diffModel(diff: string): DiffModel {
  const patches = parsePatch(diff);
  const hunks: HunkData[] = [];
  let added = 0;
  let removed = 0;
  let path = '';
  for (const patch of patches) {
    if (!path) path = markHiddenCharacters(stripPrefix(patch.newFileName ?? patch.oldFileName ?? patch.index ?? ''));
    for (const hunk of patch.hunks) {
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      const changes: ChangeData[] = [];
      for (const line of hunk.lines) {
        const sign = line[0];
        const content = markHiddenCharacters(line.slice(1));
        if (sign === '+') {
          changes.push({ type: 'insert', isInsert: true, lineNumber: newLine++, content });
          added += 1;
        } else if (sign === '-') {
          changes.push({ type: 'delete', isDelete: true, lineNumber: oldLine++, content });
          removed += 1;
        } else if (sign === ' ') {
          changes.push({ type: 'normal', isNormal: true, oldLineNumber: oldLine++, newLineNumber: newLine++, content });
        }
        // `\ No newline at end of file` describes the line before it; it is not a line of the file.
      }
      hunks.push({
        // parsePatch moves an empty side's start to the line after; the header says where it was.
        content: `@@ -${hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart},${hunk.oldLines} +${hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart},${hunk.newLines} @@`,
        oldStart: hunk.oldStart,
        oldLines: hunk.oldLines,
        newStart: hunk.newStart,
        newLines: hunk.newLines,
        changes,
      });
    }
  }
  return { path, hunks, added, removed };
}

/** Git-style `a/` and `b/` prefixes are not part of the path. */
function stripPrefix(name: string): string {
  return /^[ab]\//.test(name) ? name.slice(2) : name;
}
