import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from '../../../src/renderer/src/features/transcript/markdownBlocks';

/** The HTML of a text rendered whole, as SafeMarkdown's rules would parse it. */
function html(text: string): string {
  // Blocks are siblings in the page; the newlines the renderer puts between block elements are not shown.
  return renderToStaticMarkup(createElement(Markdown, { skipHtml: true }, text)).replace(/>\n+</g, '><').replace(/^\n+|\n+$/g, '');
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
    expect(split('- ```\n  a\nb\n\n```\nx\n\ny\n```\n\nz')).toEqual(['- ```\n  a\nb\n\n', '```\nx\n\ny\n```\n\n', 'z']);
  });

  it('keeps a fence in a block quote, which a blank line ends', () => {
    expect(split('> ```\n> a\n>\n> b\n> ```\n\nc')).toEqual(['> ```\n> a\n>\n> b\n> ```\n\n', 'c']);
    expect(split('> ```\n> a\n\nb\n\nc')).toEqual(['> ```\n> a\n\n', 'b\n\n', 'c']);
  });

  it('leaves the rest whole where a fence cannot be told closed without a full parse', () => {
    // The last line closes the fence at the top level but ends a list item and opens a fence inside one.
    const text = '- a\n\n  ```\n  x\n```\nmore\n\ntext\n```\n\nend';
    expect(split(text)).toEqual(['- a\n\n  ```\n  x\n```\nmore\n\ntext\n```\n\nend']);
    expect(split('  ```\ncode\n\n  ```\n\nafter')).toEqual(['  ```\ncode\n\n  ```\n\nafter']);
  });

  it('keeps a loose list whole, so its items stay one list with paragraphs', () => {
    const text = '- one\n\n- two\n\n  more of two\n\n- three\n\nAfter';
    expect(split(text)).toEqual(['- one\n\n- two\n\n  more of two\n\n- three\n\n', 'After']);
    expect(split('1. one\n\n2. two\n\n10) ten')).toHaveLength(1);
  });

  it('keeps indented code across blank lines', () => {
    expect(split('Code:\n\n    a\n\n    b\n\nAfter')).toEqual(['Code:\n\n    a\n\n    b\n\n', 'After']);
    expect(split('Code:\n\n\ta\n\n\tb\n\nAfter')).toEqual(['Code:\n\n\ta\n\n\tb\n\n', 'After']);
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
    expect(split('One\r\n\r\nTwo\r\n```\r\na\r\n\r\nb\r\n```\r\n\r\nThree')).toEqual(['One\r\n\r\n', 'Two\r\n```\r\na\r\n\r\nb\r\n```\r\n\r\n', 'Three']);
    expect(split('One\r\rTwo')).toEqual(['One\r\r', 'Two']);
  });

  it('treats a line of spaces or tabs as blank', () => {
    expect(split('One\n  \t\nTwo')).toEqual(['One\n  \t\n', 'Two']);
  });

  it('renders every prefix of a streamed answer as the whole prefix renders', () => {
    const answer =
      '# Plan\n\nFirst, the *why*.\n\n1. Read:\n\n   ```ts\n   const a = 1;\n\n   ```\n\n2. Write\n\n' +
      '> quoted\n>\n> ```\n> q\n> ```\n\n~~~\nraw\n\n~~~\n\n    indented\n\n    code\n\n<!--\n\n-->\n\n| t | u |\n|---|---|\n\nEnd [link](https://example.com).\n';
    for (let end = 0; end <= answer.length; end += 1) split(answer.slice(0, end));
  });
});
