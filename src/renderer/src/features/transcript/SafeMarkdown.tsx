// The model's text as Markdown (with GitHub's tables, task lists and
// strikethrough), with nothing it can make the window do on its own: raw HTML
// is dropped, images are not fetched (a URL can carry data out), and links
// open only through a question to the person.
//
// A streaming text renders block by block (see markdownBlocks.ts): a block
// whose text has not changed is not parsed again, and the growing text is
// split again only from its last clean cut, so each render parses the end of
// the answer rather than everything written so far. Code blocks are
// highlighted only once their block is finished, so the growing block costs a
// parse but never a highlighting pass, and its render takes the parse its
// split made. A finished text first shown finished (a saved session) renders
// whole: splitting would parse it twice.
import { memo, useMemo, useRef, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Processor } from 'unified';
import { CodeBlock } from './CodeBlock';
import { markdownBlocks, takeParsedBlock, type EarlierSplit } from './markdownBlocks';
import { useAskToOpenLink } from '../links/LinkConfirm';
import { openableUrl } from '../links/openableUrl';

function MarkdownLink({ href, children }: { href?: string; children?: ReactNode }) {
  const ask = useAskToOpenLink();
  const url = openableUrl(href);
  if (url === null) {
    // Not https: shown, never followed.
    return (
      <span className="link-text" title={href ? `Not opened: ${href}` : undefined}>
        {children}
        {href ? ` (${href})` : null}
      </span>
    );
  }
  // Every way of following a link asks first: a plain, ctrl, meta or shift click (onClick), and a
  // middle click (onAuxClick, which onClick never sees); the browser's own handling is always stopped.
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (event.type === 'auxclick' && event.button !== 1) return;
    ask(url);
  };
  return (
    <a href={url} className="link" onClick={follow} onAuxClick={follow}>
      {children}
    </a>
  );
}

function MarkdownImage({ alt, src }: { alt?: string; src?: string | Blob }) {
  const where = typeof src === 'string' && src !== '' ? ` (${src})` : '';
  return <span className="image-text">[image: {alt || 'no description'}{where}]</span>;
}

type PreProps = ExtraProps & { children?: ReactNode };

/** A fenced or indented code block: `<pre><code class="language-x">text</code></pre>` in the syntax tree. */
function codeOf(node: PreProps['node']): { code: string; info: string | null } | null {
  const inner = node?.children[0];
  if (!inner || inner.type !== 'element' || inner.tagName !== 'code') return null;
  const code = inner.children.map((child) => (child.type === 'text' ? child.value : '')).join('');
  const classes = inner.properties.className;
  const language = (Array.isArray(classes) ? classes : []).map(String).find((name) => name.startsWith('language-'));
  return { code, info: language ? language.slice('language-'.length) : null };
}

function components(highlight: boolean): Components {
  return {
    a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
    img: ({ alt, src }) => <MarkdownImage alt={alt} src={src} />,
    pre: ({ node, children }: PreProps) => {
      const block = codeOf(node);
      return block ? <CodeBlock code={block.code} info={block.info} highlight={highlight} /> : <pre>{children}</pre>;
    },
    // A wide table scrolls on its own, reachable by keyboard, instead of widening the transcript.
    table: ({ children }) => (
      <div className="table-scroll" role="region" aria-label="Table" tabIndex={0}>
        <table>{children}</table>
      </div>
    ),
    // A task list's boxes show what the model wrote; they are not controls.
    input: ({ type, checked }) =>
      type === 'checkbox' ? <input type="checkbox" checked={checked === true} disabled aria-label={checked ? 'Done' : 'Not done'} /> : null,
  };
}

/** Takes the parse a block's split already made, when there is one (takeParsedBlock); else parses as remark does. */
function reuseSplitParse(this: Processor) {
  const parse = this.parser;
  if (parse) this.parser = (document, file) => takeParsedBlock(document) ?? parse(document, file);
}

/** The one set of rules every block renders with; a finished block also highlights its code. */
const safeOptions: Readonly<Options> = { skipHtml: true, remarkPlugins: [remarkGfm, reuseSplitParse], components: components(false) };
const finishedOptions: Readonly<Options> = { ...safeOptions, components: components(true) };

/** Values by text, oldest out first, bounded by count and by the text held (one key can be a whole long answer). */
function textCache<T>(maxEntries: number, maxChars: number) {
  const entries = new Map<string, T>();
  let chars = 0;
  return {
    get(text: string): T | undefined {
      const known = entries.get(text);
      if (known !== undefined) {
        entries.delete(text);
        entries.set(text, known);
      }
      return known;
    },
    set(text: string, value: T): void {
      if (text.length > maxChars || entries.has(text)) return;
      entries.set(text, value);
      chars += text.length;
      while (entries.size > maxEntries || chars > maxChars) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
        chars -= oldest.length;
      }
    },
  };
}

/** Finished blocks, rendered: a row scrolled out of view and back mounts again without parsing again. */
const rendered = textCache<ReactElement>(400, 2_000_000);

function renderBlock(text: string, finished: boolean): ReactElement {
  const known = rendered.get(text);
  if (known) return known;
  const element = Markdown({ ...(finished ? finishedOptions : safeOptions), children: text });
  if (finished) rendered.set(text, element);
  return element;
}

/**
 * Texts that finished streaming, split: scrolled out of view and back, such
 * an answer mounts with the blocks it streamed in, already rendered.
 */
const splits = textCache<string[]>(200, 2_000_000);

function splitOf(text: string, earlier: EarlierSplit | null, streaming: boolean): string[] {
  const known = splits.get(text);
  if (known) return known;
  if (!streaming && earlier === null) return [text];
  const blocks = markdownBlocks(text, earlier ?? undefined);
  // A streaming text's passing states are not kept.
  if (!streaming) splits.set(text, blocks);
  return blocks;
}

const MarkdownBlock = memo(function MarkdownBlock({ text, finished }: { text: string; finished: boolean }): ReactElement {
  return renderBlock(text, finished);
});

/** `streaming`: the text is still growing, so its last block is not worth keeping. */
export function SafeMarkdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  // The split of the text last shown here: while it streams, the new text extends it. The split is
  // made again when the stream ends (from the last one, so cheaply) to keep the finished text's.
  const earlier = useRef<EarlierSplit | null>(null);
  const blocks = useMemo(() => {
    const split = splitOf(text, earlier.current, streaming);
    earlier.current = { text, blocks: split };
    return split;
  }, [text, streaming]);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        // A block's index is its identity: while text streams in, only the last one grows.
        <MarkdownBlock key={index} text={block} finished={!streaming || index < blocks.length - 1} />
      ))}
    </div>
  );
}
