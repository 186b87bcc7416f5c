/// <reference types="vite/client" />
// What the window tells a person about permission modes comes from the mode
// table (src/shared/modeTable.ts, which renders it as text), never from a
// hand-written copy: a copy drifts from what the program does. So no text the
// renderer shows (JSX text, shown attributes, and strings that are prose or
// go into shown text) may name a mode or a kind of call from the table.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PERMISSION_MODES } from '../../../src/shared/domain';
import { CALL_CLASSES, KIND_NAMES, MODE_ROWS, modeHelp } from '../../../src/shared/modeTable';

const SOURCES = import.meta.glob<string>(['../../../src/renderer/src/**/*.ts', '../../../src/renderer/src/**/*.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Attributes a person reads (or hears, through a screen reader). */
const SHOWN_ATTRIBUTES = new Set(['title', 'aria-label', 'aria-description', 'aria-valuetext', 'placeholder', 'alt', 'label']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The table's words: mode ids, call classes as spelled in code (bash_…,
 * lowercase bash and mcp), and each kind's name in words of two or more
 * (file writes, Bash commands, MCP calls…), singular or plural.
 */
function tableWords(): RegExp[] {
  const ids = [...PERMISSION_MODES, ...CALL_CLASSES].map((id) => new RegExp(`(?<![\\w-])${escape(id)}(?![\\w-])`));
  const phrases = CALL_CLASSES.flatMap((kind) => KIND_NAMES[kind].split(' and '))
    .filter((phrase) => phrase.includes(' '))
    .map((phrase) => new RegExp(`\\b${phrase.split(' ').map((word) => `${escape(word.replace(/s$/, ''))}s?`).join(' ')}\\b`, 'i'));
  return [...ids, ...phrases];
}

/** The literal parts of a string or template, with `…` where a value goes in. */
function literalText(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): string {
  if (!ts.isTemplateExpression(node)) return node.text;
  return node.head.text + node.templateSpans.map((span) => `…${span.literal.text}`).join('');
}

/** Whether a string ends up in what is shown: in JSX text, a shown attribute, or a template around it. */
function goesIntoShownText(node: ts.Node): boolean {
  let at = node;
  // Through the expressions that pass a string on: (a), a ?? b, a || b, c ? a : b, a + b, a as T.
  while (
    ts.isParenthesizedExpression(at.parent) ||
    ts.isConditionalExpression(at.parent) ||
    ts.isAsExpression(at.parent) ||
    (ts.isBinaryExpression(at.parent) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.PlusToken].includes(at.parent.operatorToken.kind))
  ) {
    if (ts.isConditionalExpression(at.parent) && at.parent.condition === at) return false;
    at = at.parent;
  }
  const parent = at.parent;
  if (ts.isTemplateSpan(parent)) return true;
  if (ts.isJsxAttribute(parent)) return SHOWN_ATTRIBUTES.has(parent.name.getText());
  if (ts.isJsxExpression(parent)) {
    const holder = parent.parent;
    return ts.isJsxAttribute(holder) ? SHOWN_ATTRIBUTES.has(holder.name.getText()) : ts.isJsxElement(holder) || ts.isJsxFragment(holder);
  }
  return false;
}

/** Text the module may show a person: JSX text, and strings that are prose or go into shown text. */
function shownTexts(fileName: string, source: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const add = (node: ts.Node, text: string) => found.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
  const visit = (node: ts.Node): void => {
    // Types, module names and property names are code, never shown.
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isPropertyAssignment(node)) return visit(node.initializer);
    if (ts.isJsxText(node)) {
      if (node.text.trim() !== '') add(node, node.text.trim());
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = literalText(node);
      if (/\s/.test(text.trim()) || goesIntoShownText(node)) add(node, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Each shown text that names a mode or a kind of call, as "file:line: text". */
function handWrittenTableWords(files: Record<string, string>): string[] {
  const words = tableWords();
  return Object.entries(files).flatMap(([fileName, source]) =>
    shownTexts(fileName, source)
      .filter(({ text }) => words.some((word) => word.test(text)))
      .map(({ line, text }) => `${fileName.replace(/^(\.\.\/)+/, '')}:${line}: ${text}`),
  );
}

describe('the mode table in the window', () => {
  it('finds a mode or a kind of call written into shown text, and leaves code values alone', () => {
    const source = [
      "const HELP = { bypass: 'bypass: every call runs without asking' };",
      'export function Help({ mode, kind }: { mode: string | null; kind: string }) {',
      "  if (kind === 'bash' || mode === 'accept-edits') return null;",
      '  return (',
      '    <p title="Bash commands ask first" className="manual">',
      "      {`Mode unchanged: ${mode ?? 'manual'}.`} MCP calls wait.",
      "      <span aria-label={kind === 'mcp' ? 'A file write' : 'other'}>{HELP.bypass}</span>",
      '    </p>',
      '  );',
      '}',
    ].join('\n');
    expect(handWrittenTableWords({ 'Help.tsx': source })).toEqual([
      'Help.tsx:1: bypass: every call runs without asking',
      'Help.tsx:5: Bash commands ask first',
      'Help.tsx:6: manual',
      'Help.tsx:6: MCP calls wait.',
      'Help.tsx:7: A file write',
    ]);
  });

  it('is told by the renderer only through the table: no shown text names a mode or a kind of call', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(50);
    expect(handWrittenTableWords(SOURCES)).toEqual([]);
  });
});

describe('modeHelp', () => {
  it('tells each mode by its row, naming bash outside the sandbox only where it differs from bash', () => {
    expect(modeHelp('manual')).toBe('manual: restricted reads run; file writes and edits, Bash commands and MCP calls ask you first. Protected files are refused in every mode.');
    expect(modeHelp('accept-edits')).toBe(
      'accept-edits: restricted reads run; file writes and edits run without asking and are shown in the conversation; Bash commands and MCP calls ask you first. Protected files are refused in every mode.',
    );
    // Bypass does not run everything: a command that leaves the sandbox still asks, as its row says.
    expect(MODE_ROWS.bypass.outcomes.unsandboxed_bash).toBe('ask');
    expect(modeHelp('bypass')).toBe(
      'bypass: restricted reads run; file writes and edits, Bash commands and MCP calls run without asking and are shown in the conversation; Bash commands outside the sandbox ask you first. Protected files are refused in every mode.',
    );
    // Auto runs only what the sandbox carries: a command with no sandbox to run in asks, as one that leaves it does.
    expect(modeHelp('auto')).toBe(
      'auto: restricted reads run; file writes and edits and Bash commands run without asking and are shown in the conversation; Bash commands while no sandbox is available, Bash commands outside the sandbox and MCP calls ask you first. Protected files are refused in every mode.',
    );
  });
});
