// Splits a message's Markdown into blocks that render the same one by one as
// the whole text renders at once, so a streaming answer re-renders only its
// last, growing block. The blocks come from the parser that renders them
// (remark with GitHub's extensions, as SafeMarkdown uses): a block is cut
// where the whole text's parse starts a top-level node. Guessing the cuts from
// the lines went wrong wherever containers nest, and even the parser's own
// cuts do not always hold: it reads some lines in the light of the ones
// around them (after indented code, "2) x" is a paragraph; on its own, a
// list). So a block that does not lie between two clean cuts (below) stays
// one only if, parsed on its own, it gives the same nodes as in the whole.
//
// A cut is clean when a blank line comes before it and the node before it is
// one a blank line closes for good: not a list (its items go on after blank
// lines) and not indented code (which can too, and changes how the parser
// reads the lines after it). The parser leaves nothing open at a clean cut,
// so the text after it parses on its own as it does in the whole.
//
// Each block runs from the start of the line its first node begins on to the
// start of the next block, so blank lines stay with the block before them and
// blocks.join('') === text, always. A text with a link reference or footnote
// definition stays one block: a definition reaches blocks other than its own.
//
// While an answer streams, the text only grows, so the caller passes the
// previous split and only the text from its last clean cut on is parsed again:
// Markdown decides a line's block from it and the lines above, so the blocks
// before a clean cut whose line was complete stay as they were. When that text
// is one block (the growing one), its parse is handed to its render
// (takeParsedBlock), so the block is parsed once, not twice.
import type { Nodes, Root, RootContent } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** The parse react-markdown runs for SafeMarkdown (remark-parse, then remark-gfm's syntax). */
const parser = unified().use(remarkParse).use(remarkGfm).freeze();

/** A split made earlier, of a text the new one may extend. */
export interface EarlierSplit {
  text: string;
  blocks: readonly string[];
}

/** Failed checks before a text is left whole: a text whose cuts keep failing is not worth parsing again and again. */
const MAX_FAILED_CHECKS = 8;

/** For each split this module returned: whether each block starts at a clean cut. */
const cleanCuts = new WeakMap<readonly string[], readonly boolean[]>();

const parse = (text: string): RootContent[] => (parser.parse(text) as Root).children;

/** The last block of the latest split, with its parse, when that parse was of the block alone. */
let parsedBlock: { text: string; tree: Root } | null = null;

/**
 * The parse of `text` when it is the block the latest split parsed on its own
 * (a streaming answer's growing block), so its render need not parse it again.
 * Handed out once: whatever the render does to the tree cannot reach another.
 */
export function takeParsedBlock(text: string): Root | undefined {
  if (parsedBlock?.text !== text) return undefined;
  const { tree } = parsedBlock;
  parsedBlock = null;
  return tree;
}

/** Nodes whose children are blocks, where a definition can sit. */
const CONTAINERS = new Set(['root', 'blockquote', 'list', 'listItem', 'footnoteDefinition']);

function hasDefinition(node: Nodes): boolean {
  if (node.type === 'definition' || node.type === 'footnoteDefinition') return true;
  return CONTAINERS.has(node.type) && 'children' in node && (node.children as Nodes[]).some(hasDefinition);
}

/** Equal as rendered: the same nodes with the same fields, wherever in the text they sit. */
function sameNodes(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((key) => key !== 'position');
  const keysB = Object.keys(b).filter((key) => key !== 'position');
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => sameNodes((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

const isLineEnd = (char: string | undefined) => char === '\n' || char === '\r';

function lineStart(text: string, offset: number): number {
  let at = offset;
  while (at > 0 && !isLineEnd(text[at - 1])) at -= 1;
  return at;
}

/** Whether the line that ends just before `at` (a line start) holds only spaces and tabs. */
function followsBlankLine(text: string, at: number): boolean {
  let end = at;
  if (text[end - 1] === '\n') end -= 1;
  if (text[end - 1] === '\r') end -= 1;
  let start = end;
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start -= 1;
  return start > 0 && isLineEnd(text[start - 1]);
}

/** A node that a blank line after it closes for good. */
function closesAtBlankLine(node: RootContent, text: string): boolean {
  if (node.type === 'code') {
    // Fenced code ends at its fence (an open one runs to the end of the text); indented code does not.
    const offset = node.position?.start.offset ?? 0;
    return /^ {0,3}(?:`{3}|~{3})/.test(text.slice(lineStart(text, offset), offset + 3));
  }
  return ['paragraph', 'heading', 'thematicBreak', 'table', 'blockquote', 'html'].includes(node.type);
}

/** Top-level nodes that begin on one line (nodes that share a line stay together). */
interface Piece {
  /** Where the line of its first node begins (0 for the first piece). */
  start: number;
  nodes: RootContent[];
  /** The text may be parsed afresh from here: see the top of the file. */
  clean: boolean;
}

/** The top-level nodes grouped by the line each begins on; null when a node has no place in the text. */
function pieces(text: string, tree: RootContent[]): Piece[] | null {
  const found: Piece[] = [];
  let previousEnd = 0;
  for (const node of tree) {
    const offset = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (offset === undefined || end === undefined) return null;
    const start = found.length === 0 ? 0 : lineStart(text, offset);
    const last = found.at(-1);
    if (last && start < previousEnd) {
      last.nodes.push(node);
    } else {
      const clean = last !== undefined && followsBlankLine(text, start) && closesAtBlankLine(last.nodes[last.nodes.length - 1], text);
      found.push({ start, nodes: [node], clean });
    }
    previousEnd = end;
  }
  return found;
}

interface Split {
  blocks: string[];
  /** Per block: whether it starts at a clean cut. */
  clean: boolean[];
}

/**
 * The text split where its parse starts top-level nodes, keeping only cuts
 * whose blocks parse on their own as they do in the whole; null when the text
 * holds a definition and must stay whole. A block that parses differently
 * takes in the piece after it when it was read differently at its end, and
 * joins the block before it when its first node differs (that line was read in
 * the light of the lines above), unless it starts at a clean cut.
 */
function checkedSplit(text: string): Split | null {
  const root = parser.parse(text) as Root;
  const tree = root.children;
  if (tree.some(hasDefinition)) return null;
  const found = pieces(text, tree);
  if (found === null || found.length <= 1) {
    parsedBlock = { text, tree: root };
    return { blocks: [text], clean: [false] };
  }
  const whole = { blocks: [text], clean: [false] };

  /** Indexes of the pieces that begin the blocks kept so far. */
  const starts: number[] = [];
  let failures = 0;
  let first = 0;
  let next = 1;
  while (first < found.length) {
    const end = next < found.length ? found[next].start : text.length;
    // Between two clean cuts the parser starts afresh and ends as in the whole: nothing to check.
    const betweenCleanCuts = next === first + 1 && (first === 0 || found[first].clean) && (next === found.length || found[next].clean);
    const alone = betweenCleanCuts ? [] : parse(text.slice(found[first].start, end));
    const nodes = found.slice(first, next).flatMap((piece) => piece.nodes);
    if (betweenCleanCuts || sameNodes(alone, nodes)) {
      starts.push(first);
      first = next;
      next = first + 1;
      continue;
    }
    if (++failures > MAX_FAILED_CHECKS) return whole;
    const readInContext = first > 0 && !found[first].clean && !sameNodes(alone[0], nodes[0]);
    if ((readInContext || next === found.length) && starts.length > 0) first = starts.pop() as number;
    else if (next < found.length) next += 1;
    else return whole;
  }
  return {
    blocks: starts.map((start, at) => text.slice(found[start].start, at + 1 < starts.length ? found[starts[at + 1]].start : text.length)),
    clean: starts.map((start) => found[start].clean),
  };
}

/**
 * How much of `earlier` a longer text keeps as it is: the blocks before its
 * last clean cut whose line was complete in the earlier text. A line still
 * being written may yet turn into something else ("<div" into "<divide"), and
 * with it whether a block starts there.
 */
function keptBlocks(earlier: EarlierSplit): { blocks: readonly string[]; clean: readonly boolean[]; length: number } {
  const clean = cleanCuts.get(earlier.blocks) ?? [];
  let length = earlier.text.length;
  for (let index = earlier.blocks.length - 1; index > 0; index -= 1) {
    const block = earlier.blocks[index];
    length -= block.length;
    if (clean[index] && /[\r\n]/.test(block)) return { blocks: earlier.blocks.slice(0, index), clean: clean.slice(0, index), length };
  }
  return { blocks: [], clean: [], length: 0 };
}

/** How many characters at the start of `text` a split given `earlier` takes as they were, without parsing them. */
export function reusedLength(text: string, earlier: EarlierSplit): number {
  return text.startsWith(earlier.text) ? keptBlocks(earlier).length : 0;
}

/** `earlier`: the split of a text this one may extend (a streaming answer's previous text), to parse only what follows it. */
export function markdownBlocks(text: string, earlier?: EarlierSplit): string[] {
  const kept = earlier && text.startsWith(earlier.text) ? keptBlocks(earlier) : { blocks: [], clean: [], length: 0 };
  const rest = checkedSplit(text.slice(kept.length));
  // A definition anywhere reaches every block, kept ones included.
  if (rest === null) return [text];
  const blocks = [...kept.blocks, ...rest.blocks];
  // The rest began at a clean cut, which it still is.
  cleanCuts.set(blocks, [...kept.clean, kept.length > 0, ...rest.clean.slice(1)]);
  return blocks;
}
