// The answer of a search shared among workers: their files put back in walk
// order, cut at max_results or at the answer's size, formatted, and the line
// of counts. Pure, so the same parts always give the same answer.
import { formatHits } from './matchLines';
import type { SearchPart } from './searchJob';
import { MAX_OUTPUT_CHARS } from './searchJob';
import { searchSummary, type SearchCut } from './summary';
import { noSkips, type SkipCounts } from './walk';

export function searchAnswer(parts: readonly SearchPart[], context: number, maxResults: number): string {
  // The first place where a part stopped: nothing from there on is known of all parts.
  const stop = parts.flatMap((part) => (part.stop ? [part.stop] : [])).sort((a, b) => a.order - b.order)[0] ?? null;
  const files = parts.flatMap((part) => part.files).sort((a, b) => a.order - b.order);
  const lines: string[] = [];
  let chars = 0;
  let matches = 0;
  let matchedFiles = 0;
  let cut: SearchCut = null;
  for (const file of files) {
    if (stop && file.order >= stop.order) break;
    // A part counted only its own matches, so the answer may have fewer left for this file than the part did.
    const take = Math.min(file.hits.matches.length, maxResults - matches);
    const exceeds = take < file.hits.matches.length || file.hits.more;
    if (take > 0) {
      const block = [...(context > 0 && lines.length > 0 ? ['--'] : []), ...formatHits(file.path, file.hits, context, take)];
      const size = block.reduce((sum, line) => sum + line.length + 1, 0);
      if (chars + size > MAX_OUTPUT_CHARS) {
        cut = 'output';
        break;
      }
      lines.push(...block);
      chars += size;
      matches += take;
      matchedFiles++;
    }
    if (exceeds) {
      cut = 'max_results';
      break;
    }
  }
  if (cut === null && stop !== null) cut = stop.reason;
  const searched = parts.reduce((sum, part) => sum + part.searched, 0);
  const summary = searchSummary({ matches, matchedFiles, searched, skipped: sumSkips(parts.map((part) => part.skipped)), cut, maxResults });
  return [...lines, summary].join('\n');
}

function sumSkips(all: readonly SkipCounts[]): SkipCounts {
  const total = noSkips();
  for (const skipped of all) for (const key of Object.keys(total) as Array<keyof SkipCounts>) total[key] += skipped[key];
  return total;
}
