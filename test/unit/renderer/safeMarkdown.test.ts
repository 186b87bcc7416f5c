import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SafeMarkdown } from '../../../src/renderer/src/features/transcript/SafeMarkdown';
import { markdownBlocks, takeParsedBlock } from '../../../src/renderer/src/features/transcript/markdownBlocks';

const render = (text: string, streaming: boolean) => renderToStaticMarkup(createElement(SafeMarkdown, { text, streaming }));
const keywords = (html: string) => html.match(/class="token keyword"/g)?.length ?? 0;

describe('SafeMarkdown', () => {
  const text = ['```ts', 'const first = 1;', '```', '', 'and then', '', '```ts', 'let second = 2;'].join('\n');

  it('highlights the code of finished blocks only while the answer streams, so a growing block costs no highlighting', () => {
    const html = render(text, true);
    expect(keywords(html)).toBe(1);
    expect(html).toContain('let second = 2;');
    expect(html).not.toMatch(/<span class="token keyword">let<\/span>/);
  });

  it('highlights every block once the answer is complete', () => {
    const html = render(`${text}\n\`\`\``, false);
    expect(keywords(html)).toBe(2);
    expect(html).toMatch(/<span class="token keyword">let<\/span>/);
  });

  it('renders a streaming answer\'s growing block from the parse its split made, as the text renders', () => {
    const answer = '- a\n- *b*';
    // The split leaves the parse of its one, growing block to be taken; the render takes it.
    markdownBlocks(answer);
    const streamed = render(answer, true);
    expect(takeParsedBlock(answer)).toBeUndefined();
    expect(streamed).toBe(render(answer, false));
    expect(streamed).toContain('<li><em>b</em></li>');
  });

  it('leaves a code block past the highlighting cap uncoloured, saying so, so a huge block cannot hold the window', () => {
    const html = render(['```ts', 'const x = 1;\n'.repeat(4_000), '```'].join('\n'), false);
    expect(keywords(html)).toBe(0);
    expect(html).toContain('not coloured: longer than 40,000 characters');
  });

  it('renders a GFM table as a table in a scroll region, and never raw HTML from the text', () => {
    const html = render('| a | b |\n| - | - |\n| 1 | <b>2</b> |', false);
    expect(html).toContain('<table>');
    expect(html).toContain('<th>a</th>');
    expect(html).toMatch(/<div class="table-scroll" role="region" aria-label="Table" tabindex="0">/);
    expect(html).not.toContain('<b>');
  });
});
