// Reads the renderer's colour variables from its CSS, per theme, and computes
// WCAG 2 contrast between them. The CSS is the single source: a test over
// these values fails as soon as someone defines a colour too faint to read.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const RENDERER_SRC = path.resolve(__dirname, '../../src/renderer/src');

export type ThemeName = 'light' | 'dark';
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

export interface CssRule {
  file: string;
  selector: string;
  declarations: Array<{ property: string; value: string }>;
}

export function rendererCssFiles(dir = RENDERER_SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.css'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Flat rules of a stylesheet (comments removed); the rules inside an at-rule are read as if at the top. */
export function cssRules(file: string): CssRule[] {
  const css = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: CssRule[] = [];
  for (const match of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const declarations = match[2]
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part.includes(':'))
      .map((part) => ({ property: part.slice(0, part.indexOf(':')).trim(), value: part.slice(part.indexOf(':') + 1).trim() }));
    rules.push({ file, selector: match[1].trim().replace(/\s+/g, ' '), declarations });
  }
  return rules;
}

const LIGHT_ROOT = /^:root$/;
const DARK_ROOT = /^:root\[data-theme=['"]?dark['"]?\]$/;

/** Every custom property of each theme: dark is light overridden by the dark blocks. */
export function themeVariables(files = rendererCssFiles()): Record<ThemeName, Map<string, string>> {
  const light = new Map<string, string>();
  const darkOnly = new Map<string, string>();
  for (const rule of files.flatMap(cssRules)) {
    const target = LIGHT_ROOT.test(rule.selector) ? light : DARK_ROOT.test(rule.selector) ? darkOnly : null;
    if (!target) continue;
    for (const { property, value } of rule.declarations) if (property.startsWith('--')) target.set(property, value);
  }
  return { light, dark: new Map([...light, ...darkOnly]) };
}

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()` and `rgba()`; anything else is not a colour (null). */
export function parseColor(value: string): Rgba | null {
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value.trim());
  if (hex) {
    let digits = hex[1];
    if (digits.length <= 4) digits = [...digits].map((d) => d + d).join('');
    const n = (i: number) => parseInt(digits.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: digits.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/i.exec(value.trim());
  if (fn) {
    const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : parseFloat(fn[4]);
    return { r: Number(fn[1]), g: Number(fn[2]), b: Number(fn[3]), a: alpha };
  }
  return null;
}

/** WCAG 2 relative luminance of an opaque sRGB colour. */
export function luminance({ r, g, b }: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export interface ColorRoles {
  /** Text colours, each to be readable on every surface. */
  texts: string[];
  /** Backgrounds text is written on. */
  surfaces: string[];
  /** [text, fill]: the text on a filled control (`--accent-ink` on `--accent`). */
  fills: Array<[string, string]>;
}

/** The roles of the variables, from their names (the convention written above styles.css's :root). */
export function colorRoles(variables: Map<string, string>): ColorRoles {
  const names = [...variables.keys()].filter((name) => parseColor(variables.get(name) ?? '') !== null);
  const fills: Array<[string, string]> = [];
  const texts: string[] = [];
  const surfaces: string[] = [];
  for (const name of names) {
    if (name === '--bg' || name === '--panel' || name.endsWith('-bg')) surfaces.push(name);
    else if (name.endsWith('-ink') && names.includes(name.slice(0, -'-ink'.length))) fills.push([name, name.slice(0, -'-ink'.length)]);
    else if (['--ink', '--muted', '--accent', '--danger', '--ok'].includes(name) || name.endsWith('-ink') || name.startsWith('--hl-')) texts.push(name);
  }
  return { texts, surfaces, fills };
}

/**
 * A colour value as the browser would compute it in a theme: a literal, `var(--x)`, or
 * `color-mix(in srgb, A P%, B)` of those (or `transparent`); null for anything else.
 */
export function resolveColor(value: string, variables: Map<string, string>, depth = 0): Rgba | null {
  const text = value.trim();
  if (depth > 10) return null;
  if (text === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const reference = /^var\((--[\w-]+)\)$/.exec(text);
  if (reference) {
    const target = variables.get(reference[1]);
    return target === undefined ? null : resolveColor(target, variables, depth + 1);
  }
  const mix = /^color-mix\(\s*in\s+srgb\s*,(.*)\)$/i.exec(text);
  if (mix) {
    const parts = splitTopLevel(mix[1]);
    if (parts.length !== 2) return null;
    const [a, b] = parts.map((part) => {
      const percent = /\s+([\d.]+)%$/.exec(part.trim());
      return { color: resolveColor(percent ? part.trim().slice(0, -percent[0].length) : part, variables, depth + 1), percent: percent ? Number(percent[1]) : null };
    });
    if (!a.color || !b.color) return null;
    const pa = (a.percent ?? (b.percent === null ? 50 : 100 - b.percent)) / 100;
    const pb = 1 - pa;
    // CSS Color 5: premultiplied by alpha, then divided by the mixed alpha.
    const alpha = a.color.a * pa + b.color.a * pb;
    const channel = (key: 'r' | 'g' | 'b') => (alpha === 0 ? 0 : (a.color![key] * a.color!.a * pa + b.color![key] * b.color!.a * pb) / alpha);
    return { r: channel('r'), g: channel('g'), b: channel('b'), a: alpha };
  }
  return parseColor(text);
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim());
}
