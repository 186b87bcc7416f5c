// The model's text as Markdown, with nothing it can make the window do on its
// own: raw HTML is dropped, images are not fetched (a URL can carry data out),
// and links open only through a question to the person.
//
// The text renders block by block (see markdownBlocks.ts): a block whose text
// has not changed is not parsed again, so a streaming answer costs one parse of
// its last block per render rather than one of everything written so far.
import { memo, useMemo, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components, type Options } from 'react-markdown';
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

const components: Components = {
  a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  img: ({ alt, src }) => <MarkdownImage alt={alt} src={src} />,
};

/** The one set of rules every block renders with. */
const safeOptions: Readonly<Options> = { skipHtml: true, components };

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
  const element = Markdown({ ...safeOptions, children: text });
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
