import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { markdownBlocks, reusedLength, takeParsedBlock, type EarlierSplit } from '../../../src/renderer/src/features/transcript/markdownBlocks';

/** The HTML of a text rendered whole, as SafeMarkdown's rules would parse it. */
function html(text: string): string {
  // Blocks are siblings in the page; the newlines the renderer puts between block elements are not shown.
  return renderToStaticMarkup(createElement(Markdown, { skipHtml: true, remarkPlugins: [remarkGfm] }, text)).replace(/>\n+</g, '><').replace(/^\n+|\n+$/g, '');
}

/** The texts the Markdown parser reads while `run` runs. */
function parsedTexts(run: () => void): string[] {
  const processor = Object.getPrototypeOf(unified()) as { parse: (file: unknown) => unknown };
  const parse = vi.spyOn(processor, 'parse');
  try {
    run();
    return parse.mock.calls.map(([file]) => String(file));
  } finally {
    parse.mockRestore();
  }
}

function blocksHtml(text: string): string {
  return markdownBlocks(text).map(html).join('');
}

/** Splits the text, checks nothing is lost and that the blocks render as the whole does, and returns the blocks. */
function split(text: string): string[] {
  const blocks = markdownBlocks(text);
  expect(blocks.join('')).toBe(text);
  expect(blocksHtml(text)).toBe(html(text));
  return blocks;
}

describe('markdownBlocks', () => {
  it('splits paragraphs and headings at blank lines', () => {
    expect(split('# Title\n\nOne\ntwo\n\n\nThree')).toEqual(['# Title\n\n', 'One\ntwo\n\n\n', 'Three']);
  });

  it('renders a task-list marker under an empty numbered item as the whole text does', () => {
    // Found by the property test below: the Markdown parser's development build throws on it (vitest.config.mts).
    expect(split('1.\n[ ] task').join('')).toBe('1.\n[ ] task');
  });

  it('keeps an empty text as one empty block', () => {
    expect(markdownBlocks('')).toEqual(['']);
  });

  it('keeps the trailing partial block, and its blank lines, last', () => {
    expect(split('Done.\n\nStill writ')).toEqual(['Done.\n\n', 'Still writ']);
    expect(split('Done.\n\n')).toEqual(['Done.\n\n']);
  });

  it('does not split inside a backtick fence with blank lines', () => {
    const text = 'Before\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter';
    expect(split(text)).toEqual(['Before\n\n', '```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\n', 'After']);
  });

  it('does not split inside a tilde fence, nor close it with backticks or a shorter run', () => {
    const text = '~~~~\n```\n\nnot closed\n~~~\n\nstill code\n~~~~\n\nAfter';
    expect(split(text)).toEqual(['~~~~\n```\n\nnot closed\n~~~\n\nstill code\n~~~~\n\n', 'After']);
  });

  it('runs an unclosed fence to the end of the text', () => {
    const text = 'Intro\n\n```py\ndef f():\n\n    return 1\n\nmore';
    expect(split(text)).toEqual(['Intro\n\n', '```py\ndef f():\n\n    return 1\n\nmore']);
  });

  it('closes a fence indented up to three spaces, not one indented four', () => {
    expect(split('```\na\n\n   ```\n\nb')).toEqual(['```\na\n\n   ```\n\n', 'b']);
    expect(split('```\na\n\n    ```\n\nb')).toEqual(['```\na\n\n    ```\n\nb']);
  });

  it('treats a fence line inside a fence of the other kind as code', () => {
    expect(split('```\n~~~\n\n```\n\nx')).toEqual(['```\n~~~\n\n```\n\n', 'x']);
  });

  it('keeps a fence in a list item, indented under it, with its list', () => {
    const text = '1. Install:\n\n   ```sh\n   npm i\n\n   npm test\n   ```\n\n2. Run it.\n\nDone.';
    expect(split(text)).toEqual(['1. Install:\n\n   ```sh\n   npm i\n\n   npm test\n   ```\n\n2. Run it.\n\n', 'Done.']);
  });

  it('keeps a fence that opens on a list item line, and ends it with the item', () => {
    expect(split('- ```\n  a\n\n  b\n  ```\n\nc\n\nd')).toEqual(['- ```\n  a\n\n  b\n  ```\n\n', 'c\n\n', 'd']);
    // An unindented line ends the item and its fence: "b" is a paragraph of its own.
    expect(split('- ```\n  a\nb\n\n```\nx\n\ny\n```\n\nz')).toEqual(['- ```\n  a\n', 'b\n\n', '```\nx\n\ny\n```\n\n', 'z']);
  });

  it('keeps a fence in a block quote, which a blank line ends', () => {
    expect(split('> ```\n> a\n>\n> b\n> ```\n\nc')).toEqual(['> ```\n> a\n>\n> b\n> ```\n\n', 'c']);
    expect(split('> ```\n> a\n\nb\n\nc')).toEqual(['> ```\n> a\n\n', 'b\n\n', 'c']);
  });

  it('cuts where a fence in a list item ends with the item, and the unindented fence line opens a new one', () => {
    const text = '- a\n\n  ```\n  x\n```\nmore\n\ntext\n```\n\nend';
    expect(split(text)).toEqual(['- a\n\n  ```\n  x\n', '```\nmore\n\ntext\n```\n\n', 'end']);
    expect(split('  ```\ncode\n\n  ```\n\nafter')).toEqual(['  ```\ncode\n\n  ```\n\n', 'after']);
  });

  it('keeps a loose list whole, so its items stay one list with paragraphs', () => {
    const text = '- one\n\n- two\n\n  more of two\n\n- three\n\nAfter';
    expect(split(text)).toEqual(['- one\n\n- two\n\n  more of two\n\n- three\n\n', 'After']);
    // A different delimiter starts another list, which renders the same on its own.
    expect(split('1. one\n\n2. two\n\n10) ten')).toEqual(['1. one\n\n2. two\n\n', '10) ten']);
  });

  it('keeps indented code across blank lines', () => {
    expect(split('Code:\n\n    a\n\n    b\n\nAfter')).toEqual(['Code:\n\n', '    a\n\n    b\n\n', 'After']);
    expect(split('Code:\n\n\ta\n\n\tb\n\nAfter')).toEqual(['Code:\n\n', '\ta\n\n\tb\n\n', 'After']);
  });

  it('keeps a table (lines without a blank between them) in one block', () => {
    const table = '| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |\n';
    expect(split(`Intro\n\n${table}\nAfter`)).toEqual(['Intro\n\n', `${table}\n`, 'After']);
  });

  it('does not split inside an HTML comment or a pre element that spans blank lines', () => {
    expect(split('a\n\n<!-- hidden\n\nstill hidden\n\n-->\n\nb')).toEqual(['a\n\n', '<!-- hidden\n\nstill hidden\n\n-->\n\n', 'b']);
    expect(split('<pre>\n\nx\n\n</pre>\n\nb')).toEqual(['<pre>\n\nx\n\n</pre>\n\n', 'b']);
    expect(split('<!-- one line -->\n\nb')).toEqual(['<!-- one line -->\n\n', 'b']);
  });

  it('does not split a text with a link reference definition, which any block may use', () => {
    const text = 'See [the docs][d].\n\nMore.\n\n[d]: https://example.com';
    expect(split(text)).toEqual([text]);
  });

  it('still splits prose where a bracket and a colon only meet mid-line', () => {
    expect(split('The value a[1]: is read first.\n\nThen b.')).toHaveLength(2);
  });

  it('keeps a text whole when a definition follows quote or list markers', () => {
    const text = 'Use [x].\n\n> [x]: https://example.com';
    expect(split(text)).toEqual([text]);
  });

  it('ignores a colon after a bracket inside a fence', () => {
    expect(split('```ts\ntype T = { [key: string]: number };\n```\n\nx')).toHaveLength(2);
  });

  it('splits CRLF and CR text the same way as LF text', () => {
    expect(split('One\r\n\r\nTwo\r\n```\r\na\r\n\r\nb\r\n```\r\n\r\nThree')).toEqual(['One\r\n\r\n', 'Two\r\n', '```\r\na\r\n\r\nb\r\n```\r\n\r\n', 'Three']);
    expect(split('One\r\rTwo')).toEqual(['One\r\r', 'Two']);
  });

  it('treats a line of spaces or tabs as blank', () => {
    expect(split('One\n  \t\nTwo')).toEqual(['One\n  \t\n', 'Two']);
  });

  it('keeps a fence that a list item opens and a top-level fence closes, so a heading after it stays code', () => {
    // "1." ends the first list and "  ```" opens a top-level fence, so everything after it is code.
    const text = '* star\n  ```\n1.\n  ```\n    \n# H';
    expect(html(text)).not.toContain('<h1>');
    expect(split(text)).toEqual(['* star\n  ```\n', '1.\n', '  ```\n    \n# H']);
  });

  it('keeps a block with the one before it when the parser read its first line in the light of that one', () => {
    // After indented code (even past a blank line), "2) text" is a paragraph; on its own it would be a list.
    expect(html('\ttext\n\n2) text')).toContain('<p>2) text</p>');
    expect(split('\ttext\n\n2) text')).toEqual(['\ttext\n\n2) text']);
  });

  it('keeps a block with the one after it when the parser ended it in the light of that one', () => {
    expect(split('text\n\ntext\n- <pre>\ntext')).toEqual(['text\n\n', 'text\n- <pre>\ntext']);
  });

  it('does not split a text with a footnote, whose definition any block may use', () => {
    const text = 'A claim.[^1]\n\nMore.\n\n[^1]: The source.';
    expect(split(text)).toEqual([text]);
  });

  it('cuts cleanly after a heading, a closed fence, HTML, or a paragraph a heading or fence interrupts, so such a text is parsed once', () => {
    const answer =
      '## Setup\nInstall the tools:\n```sh\nnpm install\n```\nThen run the tests:\n~~~\nnpm test\n~~~\n***\n' +
      '<!-- generated -->\nAll done.\n# Next\n> A note.\n\nThe end.';
    let blocks: string[] = [];
    expect(parsedTexts(() => (blocks = markdownBlocks(answer)))).toEqual([answer]);
    expect(blocks).toEqual([
      '## Setup\n',
      'Install the tools:\n',
      '```sh\nnpm install\n```\n',
      'Then run the tests:\n',
      '~~~\nnpm test\n~~~\n',
      '***\n',
      '<!-- generated -->\n',
      'All done.\n',
      '# Next\n',
      '> A note.\n\n',
      'The end.',
    ]);
    expect(split(answer)).toEqual(blocks);
  });

  it('parses again, on its own, only a block beside a list', () => {
    const answer = 'Steps:\n1. Build\n2. Test\n\nThen ship it.\n\n## Done\n';
    // "Steps:" ends as it would on its own; the list after it does not start so: the parser reads the
    // rest of its first line as interrupting the paragraph.
    expect(parsedTexts(() => markdownBlocks(answer))).toEqual([answer, '1. Build\n2. Test\n\n', 'Then ship it.\n\n']);
    expect(split(answer)).toEqual(['Steps:\n', '1. Build\n2. Test\n\n', 'Then ship it.\n\n', '## Done\n']);
    // Interrupting "text", "- 2) x" holds a paragraph; on its own, a list in a list.
    expect(split('text\n- 2) x')).toEqual(['text\n- 2) x']);
  });

  it('does not keep a cut after a paragraph when the line after the cut may yet change what starts there', () => {
    // Followed by "x", "|---|" is no delimiter row, and "| a |" goes on the paragraph.
    expect(html('para\n| a |\n|---|x')).toBe('<p>para\n| a |\n|---|x</p>');
    const table = { text: 'para\n| a |\n|---|', blocks: markdownBlocks('para\n| a |\n|---|') };
    expect(reusedLength('para\n| a |\n|---|x', table)).toBe(0);
    expect(markdownBlocks('para\n| a |\n|---|x', table)).toEqual(['para\n| a |\n|---|x']);
    // GitHub's table syntax makes "</pre>" HTML while "| -" might begin a delimiter row, and not after.
    const pre = { text: 'text\n</pre>\n| -', blocks: markdownBlocks('text\n</pre>\n| -') };
    expect(pre.blocks).toEqual(['text\n', '</pre>\n| -']);
    expect(reusedLength('text\n</pre>\n| - | -', pre)).toBe(0);
    expect(markdownBlocks('text\n</pre>\n| - | -', pre)).toEqual(['text\n</pre>\n| - | -']);
  });

  it('splits a long text that extends an earlier one as it splits it afresh, however many of its cuts fail', () => {
    // Each "2) text" reads as a list on its own but as a paragraph after indented code, so each costs a failed check.
    const part = '\ttext\n\n2) text\n\n# H\n\n';
    const text = part.repeat(12);
    const earlier = { text: part.repeat(4), blocks: markdownBlocks(part.repeat(4)) };
    expect(markdownBlocks(text, earlier)).toEqual(markdownBlocks(text));
    expect(split(text)).toEqual(Array.from({ length: 12 }, () => ['\ttext\n\n2) text\n\n', '# H\n\n']).flat());
  });

  it('splits a streamed answer as it splits the whole of each prefix, parsing again only its end', () => {
    const answer =
      '# Plan\n\nFirst, the *why*.\n\n1. Read:\n\n   ```ts\n   const a = 1;\n\n   ```\n\n2. Write\n\n' +
      '> quoted\n>\n> ```\n> q\n> ```\n\n~~~\nraw\n\n~~~\n\n    indented\n\n    code\n\n<!--\n\n-->\n\n<div\n\n| t | u |\n|---|---|\n\nEnd [link](https://example.com).\n';
    let earlier: EarlierSplit = { text: '', blocks: [''] };
    let reused = 0;
    for (let end = 0; end <= answer.length; end += 1) {
      const text = answer.slice(0, end);
      reused = reusedLength(text, earlier);
      const blocks = markdownBlocks(text, earlier);
      expect(blocks).toEqual(markdownBlocks(text));
      // Rendering is the slow part; every few prefixes, and the whole answer, show the blocks render as the text does.
      if (end % 5 === 0 || end === answer.length) split(text);
      earlier = { text, blocks };
    }
    expect(earlier.blocks).toHaveLength(10);
    // The last delta parsed only the block after the HTML (the table and the last line); everything before it was kept.
    expect(reused).toBe(answer.indexOf('| t | u |'));
  });

  it('parses again after a list or indented code only from a later clean cut, since they reach past blank lines', () => {
    // After a list, indented lines are each a code block of their own; on their own they would be one.
    const list = '  1. text\n\n    text\n';
    const earlier = { text: list, blocks: markdownBlocks(list) };
    expect(reusedLength(`${list}    more`, earlier)).toBe(0);
    expect(markdownBlocks(`${list}    more`, earlier)).toEqual(markdownBlocks(`${list}    more`));
    expect(split(`${list}    more`)).toEqual(['  1. text\n\n', '    text\n', '    more']);
  });

  it('hands the parse of a growing last block to its render once, as remark gives it', () => {
    const earlier = { text: 'Done.\n\n- a\n', blocks: markdownBlocks('Done.\n\n- a\n') };
    // A literal URL right after code is linked by remark's last tree transform, which the split's own
    // parses leave out; the tree handed out must have it.
    const grown = '- a\n- b: `docs`www.example.com';
    expect(reusedLength(`Done.\n\n${grown}`, earlier)).toBe('Done.\n\n'.length);
    expect(markdownBlocks(`Done.\n\n${grown}`, earlier)).toEqual(['Done.\n\n', grown]);
    expect(takeParsedBlock('- a\n')).toBeUndefined();
    const tree = takeParsedBlock(grown);
    expect(tree).toEqual(unified().use(remarkParse).use(remarkGfm).parse(grown));
    expect(JSON.stringify(tree)).toContain('"url":"http://www.example.com"');
    expect(takeParsedBlock(grown)).toBeUndefined();
  });

  it('parses again from the start of the text when the new text does not extend the earlier one', () => {
    const earlier = { text: '- a\n\n- b\n\n', blocks: ['- a\n\n- b\n\n'] };
    expect(markdownBlocks('Edited\n\nnow', earlier)).toEqual(['Edited\n\n', 'now']);
  });
});

// Markdown-ish lines: containers, fences, indented code, headings, tables, HTML
// and blank lines, in the combinations where a split is easy to get wrong.
const INDENTS = ['', '', ' ', '  ', '   ', '    ', '\t'];
const MARKERS = ['- ', '* ', '+ ', '1. ', '2) ', '10. ', '> ', '>', '-', '1.'];
const CONTENTS = [
  'text',
  'more words',
  '# H',
  '## Two #',
  '```',
  '```ts',
  '~~~',
  '````',
  '`x` and *y*',
  '---',
  '***',
  '===',
  '| a | b |',
  '| - | - |',
  '|---|',
  '<div>',
  '</div>',
  '<!--',
  '-->',
  '<pre>',
  '</pre>',
  '<b>bold</b>',
  '[a] and [^1]',
  '[ ] task',
  '~~gone~~',
  'https://example.com',
  '',
];
const DEFINITIONS = ['[a]: https://example.com', '[^1]: a note'];
const ENDINGS = ['\n', '\n', '\n', '\r\n', '\r'];

const markdownLine = fc.oneof(
  { weight: 30, arbitrary: fc.tuple(fc.constantFrom(...INDENTS), fc.array(fc.constantFrom(...MARKERS), { maxLength: 2 }), fc.constantFrom(...CONTENTS)).map(([indent, markers, content]) => indent + markers.join('') + content) },
  { weight: 8, arbitrary: fc.constantFrom('', '', '  ', '    ') },
  { weight: 1, arbitrary: fc.constantFrom(...DEFINITIONS) },
);
const markdownText = fc
  .array(fc.tuple(markdownLine, fc.constantFrom(...ENDINGS)), { maxLength: 14 })
  .chain((lines) => fc.boolean().map((endsLine) => lines.map(([line, ending], index) => line + (index < lines.length - 1 || endsLine ? ending : '')).join('')));

describe('markdownBlocks, for any Markdown-ish text', () => {
  it('gives blocks that join to the text and render, one by one, as the whole text renders', () => {
    fc.assert(
      fc.property(markdownText, (text) => {
        const blocks = markdownBlocks(text);
        expect(blocks.join('')).toBe(text);
        expect(blocksHtml(text)).toBe(html(text));
      }),
      { numRuns: 400 },
    );
  });

  it('splits a text that extends an earlier one as it splits the text afresh', () => {
    fc.assert(
      fc.property(markdownText, fc.nat(), (text, at) => {
        const before = text.slice(0, at % (text.length + 1));
        expect(markdownBlocks(text, { text: before, blocks: markdownBlocks(before) })).toEqual(markdownBlocks(text));
      }),
      { numRuns: 1000 },
    );
  });
});
