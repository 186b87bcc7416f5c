// Splits a message's Markdown into blocks that render the same one by one as
// the whole text renders at once, so a streaming answer reparses only its last,
// growing block. A blank line ends a block unless Markdown would carry
// something across it: an open fenced code block, a multi-line HTML block,
// or a list item, loose list or indented code (the next line is indented or
// starts a list item). Wherever the text is ambiguous without a full parse,
// the rest stays one block: a larger block costs time, a wrong split would
// change what the person sees.
//
// Pure: blocks.join('') === text, always.

/** A fence, a list marker or a quote marker: the start of a line, tabs expanded. */
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
/** HTML blocks that, unlike the others, run across blank lines (CommonMark types 1–5). */
const HTML_BLOCKS: { start: RegExp; end: RegExp }[] = [
  { start: /^<(?:script|pre|style|textarea)(?:[\s>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i },
  { start: /^<!--/, end: /-->/ },
  { start: /^<\?/, end: /\?>/ },
  { start: /^<![A-Za-z]/, end: />/ },
  { start: /^<!\[CDATA\[/, end: /\]\]>/ },
];

interface Line {
  /** The line with its ending, as it appears in the text. */
  raw: string;
  /** Without the ending, leading tabs expanded to columns of 4. */
  text: string;
  blank: boolean;
}

interface Prefix {
  /** Column where the content after quote and list markers (and up to a code indent of spaces) begins. */
  width: number;
  quotes: number;
  listMarker: boolean;
  /** Spaces between the last marker (or the line start) and the content. */
  spaces: number;
  content: string;
}

interface OpenFence {
  char: '`' | '~';
  length: number;
  width: number;
  quotes: number;
  /** Opened on a list item's first line: the item's content starts exactly at `width`. */
  inListItem: boolean;
}

function lines(text: string): Line[] {
  const result: Line[] = [];
  const pattern = /[^\r\n]*(?:\r\n|\r|\n|$)/g;
  for (let match = pattern.exec(text); match && match[0] !== ''; match = pattern.exec(text)) {
    const raw = match[0];
    const bare = raw.replace(/[\r\n]+$/, '');
    result.push({ raw, text: expandLeadingTabs(bare), blank: /^[ \t]*$/.test(bare) });
  }
  return result;
}

function expandLeadingTabs(line: string): string {
  let out = '';
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (char === '\t') out += ' '.repeat(4 - (out.length % 4));
    else if (char === ' ' || char === '>') out += char;
    else return out + line.slice(i);
  }
  return out;
}

/** Quote and list markers at the start of a line, then its content. */
function prefix(line: string): Prefix {
  let at = 0;
  let quotes = 0;
  let listMarker = false;
  for (;;) {
    const spaces = line.slice(at).match(/^ */)?.[0].length ?? 0;
    if (spaces > 3) break;
    const rest = line.slice(at + spaces);
    if (rest.startsWith('>')) {
      quotes += 1;
      at += spaces + 1;
      if (line[at] === ' ') at += 1;
      continue;
    }
    const marker = LIST_MARKER.exec(rest);
    if (marker) {
      listMarker = true;
      at += spaces + marker[0].trimEnd().length;
      // One to four spaces after the marker belong to it; five or more start indented code.
      const after = line.slice(at).match(/^ */)?.[0].length ?? 0;
      at += after >= 1 && after <= 4 ? after : Math.min(after, 1);
      continue;
    }
    break;
  }
  const spaces = line.slice(at).match(/^ */)?.[0].length ?? 0;
  return { width: at + spaces, quotes, listMarker, spaces, content: line.slice(at + spaces) };
}

function fenceOpening(line: string): OpenFence | null {
  const p = prefix(line);
  if (p.spaces > 3) return null;
  const match = FENCE.exec(p.content);
  if (!match) return null;
  const char = match[1][0] as '`' | '~';
  if (char === '`' && match[2].includes('`')) return null;
  return { char, length: match[1].length, width: p.width, quotes: p.quotes, inListItem: p.listMarker && p.spaces === 0 };
}

type InFence = 'content' | 'closes' | 'ends' | 'unsure';

/** What a line inside an open fence does to it. */
function inFence(fence: OpenFence, line: Line): InFence {
  const run = new RegExp(`^${fence.char === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  if (fence.width === 0 && fence.quotes === 0) {
    // At the top level (the common case) only a closing fence matters; markers are code.
    return /^ {0,3}\S/.test(line.text) && run.test(line.text.trimStart()) ? 'closes' : 'content';
  }
  const p = prefix(line.text);
  if (fence.quotes > 0) {
    // A fence in a block quote ends with the quote: at a blank line or a line without the marker.
    if (line.blank || p.quotes < fence.quotes) return 'ends';
    if (p.quotes > fence.quotes) return 'unsure';
  } else if (p.quotes > 0 && !line.blank) {
    return 'unsure';
  }
  if (line.blank || p.content.trim() === '') return 'content';
  const closing = run.test(p.content);
  if (p.listMarker) return closing || fence.width > 0 ? 'unsure' : 'content';
  const width = p.width;
  if (width < fence.width) {
    // Less indented than the fence: the end of a list item around it, unless the fence is at the top level.
    if (fence.inListItem && !closing) return 'ends';
    return 'unsure';
  }
  if (!closing) return 'content';
  // A closing fence is indented at most three columns past the container's content, which lies
  // between the fence's own column minus three and that column.
  if (width <= Math.max(3, fence.width)) return 'closes';
  if (width > fence.width + 3) return 'content';
  return 'unsure';
}

function htmlBlockEnd(line: string): RegExp | null {
  if (/^ {4}/.test(line)) return null;
  const content = line.trimStart();
  const block = HTML_BLOCKS.find(({ start }) => start.test(content));
  if (!block || block.end.test(content.slice(1))) return null;
  return block.end;
}

/** Whether Markdown may carry the text before a blank line on into this next line. */
function continuesAcrossBlank(line: string): boolean {
  return /^[ \t]/.test(line) || LIST_MARKER.test(line);
}

/**
 * A line that may hold a link reference definition (`[label]: url`, possibly
 * after quote or list markers). A definition may be used anywhere in the text,
 * so a text with one is not split.
 */
function mayDefineLinks(line: string): boolean {
  return /^[\s>*+\-\d.)]*\[[^\]]*\]:/.test(line);
}

export function markdownBlocks(text: string): string[] {
  const all = lines(text);
  const blocks: string[] = [];
  let start = 0;
  let offset = 0;
  let fence: OpenFence | null = null;
  let htmlEnd: RegExp | null = null;
  let blankRun = false;
  let hasContent = false;

  for (let i = 0; i < all.length; i += 1) {
    const line = all[i];
    if (fence) {
      const effect = inFence(fence, line);
      if (effect === 'unsure') return [...blocks, text.slice(start)];
      if (effect === 'content' || effect === 'closes') {
        if (effect === 'closes') fence = null;
        offset += line.raw.length;
        continue;
      }
      fence = null;
    }
    if (htmlEnd) {
      if (htmlEnd.test(line.text)) htmlEnd = null;
      offset += line.raw.length;
      continue;
    }
    if (line.blank) {
      blankRun = true;
      offset += line.raw.length;
      continue;
    }
    if (blankRun && hasContent && !continuesAcrossBlank(line.text)) {
      blocks.push(text.slice(start, offset));
      start = offset;
    }
    blankRun = false;
    hasContent = true;
    if (mayDefineLinks(line.text)) return [text];
    fence = fenceOpening(line.text);
    if (!fence) htmlEnd = htmlBlockEnd(line.text);
    offset += line.raw.length;
  }
  if (start < text.length || blocks.length === 0) blocks.push(text.slice(start));
  return blocks;
}
