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
// A cut is clean when the parser leaves nothing open there, so the text after
// it parses on its own as it does in the whole, and the node before it ends as
// it would at the end of the text: after a heading, a thematic break, HTML or
// a closed fence; after a paragraph, with a blank line after it or a heading,
// fence or thematic break interrupting it; after a table or a block quote with
// a blank line after it; never after a list (its items go on after blank
// lines) or indented code (which can too, and changes how the parser reads the
// lines after it).
//
// So a split from scratch costs one parse of the whole text plus one of each
// block that starts at an unclean cut or ends where something is left open
// (beside a list, mostly; a block from a clean cut to the end of a paragraph
// that a list or HTML interrupts is not checked). The stretches between clean
// cuts are checked one by one, each with its own budget of failed checks, so
// the work stays in proportion to the text. Most of it is the parse of the
// whole, which no split made by the parser can avoid.
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
import { unified, type Data, type Processor } from 'unified';

type FromMarkdownExtension = Exclude<NonNullable<Data['fromMarkdownExtensions']>[number], unknown[]>;
type TreeTransform = NonNullable<FromMarkdownExtension['transforms']>[number];

/** The tree transforms the parse would run last (GitHub's autolink literals), which the split's parses leave out. */
const transforms: TreeTransform[] = [];

/**
 * Takes the tree transforms out of the parse, into `transforms`. A split only
 * compares trees, and a transform rewrites each text node on its own, so trees
 * equal before it are equal after it: running it on every parse a split makes
 * would cost a sixth of each parse for nothing.
 */
function withoutTransforms(this: Processor) {
  const data = this.data();
  data.fromMarkdownExtensions = (data.fromMarkdownExtensions ?? []).flat().map(({ transforms: moved, ...extension }) => {
    transforms.push(...(moved ?? []));
    return extension;
  });
}

/** The parse react-markdown runs for SafeMarkdown (remark-parse, then remark-gfm's syntax), less the transforms. */
const parser = unified().use(remarkParse).use(remarkGfm).use(withoutTransforms).freeze();

/** The tree the full parse gives: `tree`, transformed as remark would have. */
function transformed(tree: Root): Root {
  return transforms.reduce<Root>((result, transform) => (transform(result) as Root | null | undefined) ?? result, tree);
}

/** A split made earlier, of a text the new one may extend. */
export interface EarlierSplit {
  text: string;
  blocks: readonly string[];
}

/** Failed checks before a stretch between clean cuts is left one block: cuts that keep failing are not worth parsing again and again. */
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
  return transformed(tree);
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

function isFenced(node: RootContent, text: string): boolean {
  const offset = node.position?.start.offset ?? 0;
  return /^ {0,3}(?:`{3}|~{3})/.test(text.slice(lineStart(text, offset), offset + 3));
}

/**
 * Whether the parser leaves nothing of `node` open where the next node starts,
 * so `node` ends there as it would at the end of the text. `blankLine`: a blank
 * line comes between them.
 */
function closedBefore(node: RootContent, blankLine: boolean, text: string): boolean {
  switch (node.type) {
    case 'heading':
    case 'thematicBreak':
    case 'html':
    case 'paragraph':
      // A heading ends on its line (a setext one on its underline), a thematic break is one line, HTML
      // ends at a blank line or, for a comment or <pre> and the like, on the line of its end marker, and
      // a paragraph at a blank line or a line that starts another block.
      return true;
    case 'code':
      // A fence with text after it was closed by its fence; indented code goes on past blank lines.
      return isFenced(node, text);
    case 'table':
    case 'blockquote':
      // Without a blank line after them, the parser reads the next line in their light: as a row that
      // might be, or as a lazy line of the quote.
      return blankLine;
    default:
      // A list's items go on after blank lines, and the parser reads the line after it in their light.
      return false;
  }
}

/** Whether the cut between `node` and `next` is clean: see the top of the file. */
function cleanCut(node: RootContent, next: RootContent, blankLine: boolean, text: string): boolean {
  if (!closedBefore(node, blankLine, text)) return false;
  // A heading, fence or thematic break that interrupts a paragraph is one by its own line, as it
  // would be on its own. Not a list or a quote: the parser reads the rest of their first line as
  // interrupting too, so "text\n- 2) x" nests no list. Nor a table or HTML: whether a line starts one
  // there can hang on the line after it, which a streaming text may not have yet ("|---|" may grow
  // into "|---|x", and GitHub's table syntax makes "</pre>" after "text" HTML only before "| -").
  return blankLine || node.type !== 'paragraph' || ['heading', 'code', 'thematicBreak'].includes(next.type);
}

/** Top-level nodes that begin on one line (nodes that share a line stay together). */
interface Piece {
  /** Where the line of its first node begins (0 for the first piece). */
  start: number;
  nodes: RootContent[];
  /** The node before ends here as it would at the end of the text. */
  closed: boolean;
  /** Closed, and the text may be parsed afresh from here: see the top of the file. */
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
      const before = last?.nodes[last.nodes.length - 1];
      const blankLine = followsBlankLine(text, start);
      const closed = before !== undefined && closedBefore(before, blankLine, text);
      found.push({ start, nodes: [node], closed, clean: closed && cleanCut(before, node, blankLine, text) });
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
 * holds a definition and must stay whole. The whole text is parsed once; then
 * each stretch between two clean cuts is checked on its own (checkedStretch),
 * so the split of a text is the split of the text before a clean cut followed
 * by that of the text after it, as an extended split needs.
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
  /** Indexes of the pieces that begin blocks. */
  const starts: number[] = [];
  let stretch = 0;
  for (let index = 1; index <= found.length; index += 1) {
    if (index < found.length && !found[index].clean) continue;
    starts.push(...checkedStretch(text, found, stretch, index));
    stretch = index;
  }
  return {
    blocks: starts.map((start, at) => text.slice(found[start].start, at + 1 < starts.length ? found[starts[at + 1]].start : text.length)),
    clean: starts.map((start) => found[start].clean),
  };
}

/**
 * The pieces that begin blocks from `from` (a clean cut, or the start) up to
 * `to` (the next clean cut, or the end), which parse afresh and end as in the
 * whole, so only the cuts between them are checked: a block that parses
 * differently on its own takes in the piece after it when it was read
 * differently at its end, and joins the block before it when its first node
 * differs (that line was read in the light of the lines above).
 */
function checkedStretch(text: string, found: Piece[], from: number, to: number): number[] {
  const starts: number[] = [];
  let failures = 0;
  let first = from;
  let next = from + 1;
  while (first < to) {
    const nodes = found.slice(first, next).flatMap((piece) => piece.nodes);
    // From the start of the stretch, parsed afresh, to a cut where nothing is left open (the end of the
    // stretch is one), a block parses on its own as it does in the whole: nothing to check.
    const unchecked = first === from && (next === to || found[next].closed);
    const end = next < found.length ? found[next].start : text.length;
    const alone = unchecked ? nodes : parse(text.slice(found[first].start, end));
    if (sameNodes(alone, nodes)) {
      starts.push(first);
      first = next;
      next = first + 1;
      continue;
    }
    if (++failures > MAX_FAILED_CHECKS) return [from];
    const readInContext = first > from && !sameNodes(alone[0], nodes[0]);
    // Either first falls back to a block that was kept, or next moves on (it is short of `to`: a block
    // from `from` to `to` is never checked, and one from later on has a kept block before it).
    if ((readInContext || next === to) && starts.length > 0) first = starts.pop() as number;
    else next += 1;
  }
  return starts;
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
