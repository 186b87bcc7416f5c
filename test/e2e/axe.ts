// An accessibility scan of what the page shows now, with axe-core run inside
// the page. @axe-core/playwright needs Node 22, so axe's own browser bundle
// (axe.source) is evaluated in the page instead: page.evaluate is not subject
// to the page's Content-Security-Policy, which forbids inline scripts.
import type { Page } from '@playwright/test';
import axe from 'axe-core';

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

type AxePage = { axe?: { run(context: unknown, options: object): Promise<{ violations: Array<{ id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } };

/** The serious and critical findings of axe on the page as it is, one line-friendly record each. */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => Boolean((globalThis as unknown as AxePage).axe)))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const { violations } = await (globalThis as unknown as Required<AxePage>).axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
    });
    return violations.map((v) => ({ rule: v.id, impact: v.impact ?? 'unknown', help: v.help, targets: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
  });
  return violations.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}
