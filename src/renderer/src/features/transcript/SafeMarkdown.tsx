// The model's text as Markdown (with GitHub's tables, task lists and
// strikethrough), with nothing it can make the window do on its own: raw HTML
// is dropped, images are not fetched (a URL can carry data out), and links
// open only through a question to the person.
//
// The text renders block by block (see markdownBlocks.ts): a block whose text
// has not changed is not parsed again, so a streaming answer costs one parse of
// its last block per render rather than one of everything written so far.
// Code blocks are highlighted only once their block is finished, so the
// growing block costs a parse but never a highlighting pass.
import { memo, useMemo, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';
import { markdownBlocks } from './markdownBlocks';
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

/** The one set of rules every block renders with; a finished block also highlights its code. */
const safeOptions: Readonly<Options> = { skipHtml: true, remarkPlugins: [remarkGfm], components: components(false) };
const finishedOptions: Readonly<Options> = { ...safeOptions, components: components(true) };

/**
 * Finished blocks, rendered, by text: a row scrolled out of view and back
 * mounts again without parsing again. Bounded by count and by the text it
 * holds (a block can be a whole long answer), oldest out first.
 */
const rendered = new Map<string, ReactElement>();
const RENDERED_MAX = 400;
const RENDERED_MAX_CHARS = 2_000_000;
let renderedChars = 0;

function renderBlock(text: string, finished: boolean): ReactElement {
  const known = rendered.get(text);
  if (known) {
    rendered.delete(text);
    rendered.set(text, known);
    return known;
  }
  const element = Markdown({ ...(finished ? finishedOptions : safeOptions), children: text });
  if (finished && text.length <= RENDERED_MAX_CHARS) {
    rendered.set(text, element);
    renderedChars += text.length;
    while (rendered.size > RENDERED_MAX || renderedChars > RENDERED_MAX_CHARS) {
      const oldest = rendered.keys().next().value as string;
      rendered.delete(oldest);
      renderedChars -= oldest.length;
    }
  }
  return element;
}

const MarkdownBlock = memo(function MarkdownBlock({ text, finished }: { text: string; finished: boolean }): ReactElement {
  return renderBlock(text, finished);
});

/** `streaming`: the text is still growing, so its last block is not worth keeping. */
export function SafeMarkdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const blocks = useMemo(() => markdownBlocks(text), [text]);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        // A block's index is its identity: while text streams in, only the last one grows.
        <MarkdownBlock key={index} text={block} finished={!streaming || index < blocks.length - 1} />
      ))}
    </div>
  );
}
