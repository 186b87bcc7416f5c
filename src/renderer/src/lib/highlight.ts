// Syntax highlighting for the whole renderer: the diff view (by the file's
// name) and markdown code blocks (by the fence's name) share one refractor
// with one set of languages, one way to pick a language and one set of token
// colours (highlight.css). Only the languages registered here are bundled;
// anything else is shown as plain text, never guessed.
import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import type { Root } from 'hast';
import { refractor } from 'refractor/core';
import bash from 'refractor/bash';
import c from 'refractor/c';
import cpp from 'refractor/cpp';
import css from 'refractor/css';
import diff from 'refractor/diff';
import docker from 'refractor/docker';
import go from 'refractor/go';
import ini from 'refractor/ini';
import java from 'refractor/java';
import javascript from 'refractor/javascript';
import json from 'refractor/json';
import jsxLanguage from 'refractor/jsx';
import makefile from 'refractor/makefile';
import markdown from 'refractor/markdown';
import markup from 'refractor/markup';
import python from 'refractor/python';
import ruby from 'refractor/ruby';
import rust from 'refractor/rust';
import sql from 'refractor/sql';
import toml from 'refractor/toml';
import tsx from 'refractor/tsx';
import typescript from 'refractor/typescript';
import yaml from 'refractor/yaml';
import './highlight.css';

/**
 * The longest text (a diff's content, a code block) given syntax colours.
 * Prism's grammars cost far more than the rest (about a second per 100 KB of
 * TypeScript on a slow machine): longer text is shown uncoloured, saying so
 * (a diff still has its changed words marked), and the diff view colours a
 * shorter one just after it is first shown, so a dialog never waits.
 */
export const HIGHLIGHT_MAX_CHARS = 40_000;

for (const syntax of [markup, css, javascript, jsxLanguage, typescript, tsx, json, markdown, python, bash, go, rust, yaml, toml, diff, c, cpp, java, ruby, sql, ini, docker, makefile]) {
  refractor.register(syntax);
}

/** A language refractor knows, by the name a code fence or a file name gives it. */
export type Language = string;

/** Names people write after ``` (lower case) → the registered language. */
const FENCE_NAMES: Record<string, Language> = {
  ts: 'typescript', typescript: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript', javascript: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  jsx: 'jsx',
  json: 'json', jsonc: 'json', json5: 'json',
  css: 'css',
  html: 'markup', xml: 'markup', svg: 'markup', markup: 'markup', vue: 'markup',
  md: 'markdown', markdown: 'markdown',
  py: 'python', python: 'python', python3: 'python',
  sh: 'bash', bash: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', shellsession: 'bash',
  go: 'go', golang: 'go',
  rs: 'rust', rust: 'rust',
  yml: 'yaml', yaml: 'yaml',
  toml: 'toml',
  diff: 'diff', patch: 'diff',
  c: 'c', h: 'c',
  cpp: 'cpp', 'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp',
  java: 'java',
  rb: 'ruby', ruby: 'ruby',
  sql: 'sql',
  ini: 'ini', cfg: 'ini', conf: 'ini',
  dockerfile: 'docker', docker: 'docker',
  makefile: 'makefile', make: 'makefile', mk: 'makefile',
};

/** File extensions that differ from a fence name (the rest map through FENCE_NAMES). */
const EXTENSIONS: Record<string, Language> = {
  htm: 'markup', xhtml: 'markup', bashrc: 'bash', zshrc: 'bash', pyw: 'python', pyi: 'python', lock: 'toml',
};

/** Whole file names that say their language without an extension. */
const FILE_NAMES: Record<string, Language> = {
  dockerfile: 'docker', makefile: 'makefile', gnumakefile: 'makefile', '.bashrc': 'bash', '.zshrc': 'bash', '.profile': 'bash',
};

/** The language of a code fence's info string (`ts`, `TypeScript`, `py title="x"`), or null for plain text. */
export function languageForFence(info: string | null | undefined): Language | null {
  const name = (info ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return FENCE_NAMES[name] ?? null;
}

/** The language of a file by its name (`src/app.tsx`, `Dockerfile`), or null for plain text. */
export function languageForPath(path: string): Language | null {
  const base = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
  if (FILE_NAMES[base]) return FILE_NAMES[base];
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return null;
  const extension = base.slice(dot + 1);
  return EXTENSIONS[extension] ?? FENCE_NAMES[extension] ?? null;
}

/** The token tree (hast) of `code`: `span.token.<type>` elements around text; plain text for a null language. */
export function highlightTree(code: string, language: Language | null): Root {
  if (language === null || !refractor.registered(language)) return { type: 'root', children: [{ type: 'text', value: code }] };
  return refractor.highlight(code, language);
}

/** `code` as React nodes with token spans; the text itself is never changed, only wrapped. */
export function highlightToReact(code: string, language: Language | null): ReactNode {
  return toJsxRuntime(highlightTree(code, language), { Fragment, jsx, jsxs });
}

/** The registered refractor, for libraries that take one (react-diff-view's tokenize). */
export { refractor };
