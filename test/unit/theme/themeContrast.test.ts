import { describe, expect, it } from 'vitest';
import { colorRoles, contrastRatio, cssRules, parseColor, rendererCssFiles, resolveColor, themeVariables, type ThemeName } from '../../support/cssTheme';

const THEMES: ThemeName[] = ['light', 'dark'];
const vars = themeVariables();
const color = (theme: ThemeName, name: string) => {
  const parsed = parseColor(vars[theme].get(name) ?? '');
  if (!parsed) throw new Error(`${name} is not a colour in the ${theme} theme`);
  return parsed;
};

describe('contrast ratio', () => {
  it('follows WCAG 2: black on white is 21:1, #777 on white just misses 4.5:1', () => {
    expect(contrastRatio(parseColor('#000')!, parseColor('#ffffff')!)).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColor('#777777')!, parseColor('#fff')!)).toBeCloseTo(4.48, 2);
    expect(contrastRatio(parseColor('rgb(255, 255, 255)')!, parseColor('#000000ff')!)).toBeCloseTo(21, 5);
  });

  it('computes a color-mix of theme variables as the browser does', () => {
    const variables = new Map([['--a', '#ffffff'], ['--b', 'var(--c)'], ['--c', '#000000']]);
    expect(resolveColor('color-mix(in srgb, var(--a) 25%, var(--b))', variables)).toEqual({ r: 63.75, g: 63.75, b: 63.75, a: 1 });
    expect(resolveColor('color-mix(in srgb, var(--a) 20%, transparent)', variables)).toEqual({ r: 255, g: 255, b: 255, a: 0.2 });
    expect(resolveColor('color-mix(in oklch, var(--a), var(--b))', variables)).toBeNull();
  });
});

describe('theme colours', () => {
  const roles = colorRoles(vars.light);

  it('name text colours, surfaces and fills, as the convention above :root says', () => {
    expect(roles.texts).toEqual(expect.arrayContaining(['--ink', '--muted', '--accent', '--danger', '--ok', '--add-ink', '--remove-ink', '--warn-ink']));
    expect(roles.surfaces).toEqual(expect.arrayContaining(['--bg', '--panel', '--code-bg', '--add-bg', '--remove-bg', '--warn-bg']));
    expect(roles.fills).toEqual(expect.arrayContaining([['--accent-ink', '--accent'], ['--danger-ink', '--danger']]));
  });

  it('the dark theme gives every colour of the light theme its own value', () => {
    const darkBlock = new Set(
      rendererCssFiles()
        .flatMap(cssRules)
        .filter((rule) => /^:root\[data-theme=['"]?dark['"]?\]$/.test(rule.selector))
        .flatMap((rule) => rule.declarations.map((d) => d.property)),
    );
    const colours = [...vars.light.keys()].filter((name) => parseColor(vars.light.get(name)!) !== null);
    expect(colours.filter((name) => !darkBlock.has(name))).toEqual([]);
  });

  for (const theme of THEMES) {
    it(`${theme}: every text colour reads at 4.5:1 or more on every surface, and on its fill`, () => {
      const low: string[] = [];
      const check = (text: string, surface: string) => {
        const fg = color(theme, text);
        const bg = color(theme, surface);
        expect(fg.a, `${text} must be opaque`).toBe(1);
        expect(bg.a, `${surface} must be opaque`).toBe(1);
        const ratio = contrastRatio(fg, bg);
        if (ratio < 4.5) low.push(`${text} on ${surface}: ${ratio.toFixed(2)}:1`);
      };
      for (const text of roles.texts) for (const surface of roles.surfaces) check(text, surface);
      for (const [text, fill] of roles.fills) check(text, fill);
      expect(low).toEqual([]);
    });
  }

  it('every colour a rule uses is a theme variable in a known role, or a mix of them that reads at 4.5:1 itself', () => {
    const texts = new Set([...roles.texts, ...roles.fills.map(([text]) => text)]);
    const backgrounds = new Set([...roles.surfaces, ...roles.fills.map(([, fill]) => fill)]);
    const problems: string[] = [];
    for (const rule of rendererCssFiles().flatMap(cssRules)) {
      if (rule.selector === ':root' || /^:root\[data-theme/.test(rule.selector)) continue;
      for (const { property, value } of rule.declarations) {
        const where = `${rule.file.split('/src/renderer/src/')[1]} ${rule.selector} { ${property}: ${value} }`;
        if (/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i.test(value)) problems.push(`${where}: a literal colour (use a variable)`);
        const isText = property === 'color';
        // A dialog's backdrop is a tint over the page, not a surface text is written on.
        const isSurface = /^background(-color)?$/.test(property) && !rule.selector.endsWith('::backdrop');
        if (/color-mix\(/i.test(value)) {
          if (property.startsWith('--')) problems.push(`${where}: a mixed colour in a variable no check can place (define it in the theme blocks)`);
          else if (isText || isSurface) problems.push(...mixedColourProblems(where, value, isText));
          continue;
        }
        const used = [...value.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]);
        if (isText && used.some((name) => !texts.has(name))) problems.push(`${where}: not a text colour`);
        if (isSurface && used.some((name) => !backgrounds.has(name))) problems.push(`${where}: not a surface`);
      }
    }
    expect(problems).toEqual([]);
  });

  /** A mixed text colour must read on every surface; a mixed background must carry every text colour. */
  function mixedColourProblems(where: string, value: string, isText: boolean): string[] {
    const problems: string[] = [];
    for (const theme of THEMES) {
      const mixed = resolveColor(value, vars[theme]);
      if (!mixed || mixed.a !== 1) {
        problems.push(`${where}: in the ${theme} theme this is not an opaque colour the check can compute`);
        continue;
      }
      for (const other of isText ? roles.surfaces : roles.texts) {
        const ratio = contrastRatio(mixed, color(theme, other));
        if (ratio < 4.5) problems.push(`${where}: ${isText ? 'on' : 'under'} ${other} in the ${theme} theme: ${ratio.toFixed(2)}:1`);
      }
    }
    return problems;
  }
});
