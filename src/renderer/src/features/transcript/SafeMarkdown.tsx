// The model's text as Markdown, with nothing it can make the window do on its
// own: raw HTML is dropped, images are not fetched (a URL can carry data out),
// and links open only through a question to the person.
import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
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
  return (
    <a
      href={url}
      className="link"
      onClick={(event) => {
        event.preventDefault();
        ask(url);
      }}
    >
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

export function SafeMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
