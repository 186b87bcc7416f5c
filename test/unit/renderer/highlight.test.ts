import { describe, expect, it } from 'vitest';
import type { Element, Root, RootContent } from 'hast';
import { highlightTree, languageForFence, languageForPath } from '../../../src/renderer/src/lib/highlight';

function classesIn(node: Root | RootContent): string[] {
  if (node.type === 'text') return [];
  const own = node.type === 'element' ? ((node as Element).properties.className as string[] | undefined) ?? [] : [];
  const children = 'children' in node ? node.children.flatMap((child) => classesIn(child as RootContent)) : [];
  return [...own, ...children];
}

function textOf(node: Root | RootContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((child) => textOf(child as RootContent)).join('') : '';
}

describe('languageForPath', () => {
  it.each([
    ['src/app.ts', 'typescript'],
    ['src/App.TSX', 'tsx'],
    ['a/b/c.js', 'javascript'],
    ['x.mjs', 'javascript'],
    ['view.jsx', 'jsx'],
    ['package.json', 'json'],
    ['styles.css', 'css'],
    ['index.html', 'markup'],
    ['README.md', 'markdown'],
    ['tool.py', 'python'],
    ['run.sh', 'bash'],
    ['main.go', 'go'],
    ['lib.rs', 'rust'],
    ['ci.yml', 'yaml'],
    ['config.yaml', 'yaml'],
    ['Cargo.toml', 'toml'],
    ['fix.patch', 'diff'],
    ['Dockerfile', 'docker'],
    ['sub/Makefile', 'makefile'],
    ['C:\\work\\x.ts', 'typescript'],
  ])('%s is %s', (path, language) => {
    expect(languageForPath(path)).toBe(language);
  });

  it.each(['notes', 'LICENSE', '.env', 'archive.unknownext', 'trailing.'])('%s has no language', (path) => {
    expect(languageForPath(path)).toBeNull();
  });
});

describe('languageForFence', () => {
  it.each([
    ['ts', 'typescript'],
    ['TypeScript', 'typescript'],
    ['tsx', 'tsx'],
    ['js', 'javascript'],
    ['json', 'json'],
    ['sh', 'bash'],
    ['shell', 'bash'],
    ['py title="x.py"', 'python'],
    ['  yaml  ', 'yaml'],
    ['diff', 'diff'],
    ['rust', 'rust'],
    ['golang', 'go'],
    ['toml', 'toml'],
    ['html', 'markup'],
    ['css', 'css'],
    ['md', 'markdown'],
    ['jsx', 'jsx'],
  ])('%s is %s', (info, language) => {
    expect(languageForFence(info)).toBe(language);
  });

  it.each(['', 'text', 'plaintext', 'brainfuck', undefined, null])('%s is plain text', (info) => {
    expect(languageForFence(info)).toBeNull();
  });
});

describe('highlightTree', () => {
  it('marks keywords, strings, numbers, comments and functions of TypeScript', () => {
    const tree = highlightTree('// note\nconst greet = (name: string) => "hi " + name + 1;\ngreet("x");\n', 'typescript');
    const classes = classesIn(tree);
    for (const name of ['comment', 'keyword', 'string', 'number', 'function']) expect(classes).toContain(name);
    expect(classes.filter((name) => name === 'token').length).toBeGreaterThan(5);
  });

  it.each(['tsx', 'jsx', 'javascript', 'json', 'css', 'markup', 'markdown', 'python', 'bash', 'go', 'rust', 'yaml', 'toml', 'diff'])(
    '%s is registered and highlights something',
    (language) => {
      const samples: Record<string, string> = {
        tsx: 'const a = <div className="x">{1}</div>;',
        jsx: 'const a = <div className="x">{1}</div>;',
        javascript: 'function f() { return 1; }',
        json: '{"a": 1, "b": "c"}',
        css: '.a { color: red; }',
        markup: '<p class="x">hi</p>',
        markdown: '# Title\n\n**bold**',
        python: 'def f():\n    return "x"',
        bash: 'if [ -f x ]; then echo "y"; fi',
        go: 'func main() { fmt.Println("x") }',
        rust: 'fn main() { let x = 1; }',
        yaml: 'key: "value"\nn: 1',
        toml: '[package]\nname = "x"',
        diff: '+added\n-removed',
      };
      const tree = highlightTree(samples[language] as string, language);
      expect(classesIn(tree)).toContain('token');
      expect(textOf(tree)).toBe(samples[language]);
    },
  );

  it('leaves the text unchanged and unwrapped for no language', () => {
    const tree = highlightTree('const x = 1;', null);
    expect(classesIn(tree)).toEqual([]);
    expect(textOf(tree)).toBe('const x = 1;');
  });

  it('keeps every character of what it highlights, markup included', () => {
    const code = '<script>alert("x")</script>\n\u202e & &amp; </p>';
    expect(textOf(highlightTree(code, 'markup'))).toBe(code);
    expect(textOf(highlightTree(code, 'typescript'))).toBe(code);
  });
});
