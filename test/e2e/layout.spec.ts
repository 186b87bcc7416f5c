// The window from 800x600 to 2560 wide: the header stays one row, nothing
// runs off the side, dialogs keep their buttons in view, the transcript keeps
// a usable height, prose keeps a readable measure, and a long first prompt
// cannot widen the session lists.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { SessionLog } from '../../src/main/core/sessions/sessionLog';
import { MIN_WINDOW } from '../../src/shared/windowSize';
import { ask, expect, loosenMode, test } from './fixtures';

const SIZES = [
  // The smallest the window can be made.
  MIN_WINDOW,
  { width: 900, height: 700 },
  { width: 1280, height: 800 },
  { width: 2560, height: 1440 },
];

const LONG_PROMPT = `Please look through every file of this project and ${'tell me what each function does, '.repeat(60)}then stop.`;

/** The few DOM shapes the probes below use (the test project is type-checked without the DOM library). */
interface Box {
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
}
interface El {
  tagName: string;
  className: string;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  parentElement: El | null;
  children: ArrayLike<El>;
  getBoundingClientRect(): Box;
  checkVisibility(options?: object): boolean;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}
interface Probe {
  document: { documentElement: El; querySelectorAll(selector: string): ArrayLike<El> };
  getComputedStyle(element: El): Record<'overflowX' | 'paddingTop' | 'paddingBottom' | 'borderTopWidth' | 'borderBottomWidth', string>;
}

/** Elements whose box runs past the right edge of the window (each by tag, class and how far). */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as Probe;
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || !element.checkVisibility({ contentVisibilityAuto: true })) continue;
      // What shows of it: an ancestor that clips (a cell cut with an ellipsis, a scroll area) ends it at its own edge.
      let right = box.right;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') right = Math.min(right, parent.getBoundingClientRect().right);
      }
      if (right > width + 1) found.push(`${element.tagName.toLowerCase()}.${element.className} right=${Math.round(right)}`);
    }
    if (document.documentElement.scrollWidth > width) found.push(`page scrollWidth=${document.documentElement.scrollWidth}`);
    return found;
  });
}

/**
 * The header as one row: the spread of its parts' vertical centres, how far its height exceeds its tallest part
 * plus its padding, and any two parts (or status items) that overlap side by side.
 */
async function headerRow(page: Page): Promise<{ rowSpread: number; extraHeight: number; overlaps: string[] }> {
  return page.locator('header.header').evaluate((element: unknown) => {
    const { getComputedStyle } = globalThis as unknown as Probe;
    const header = element as El;
    const parts = [...Array.from(header.children), ...Array.from(header.querySelectorAll('.status > div'))];
    const boxes = parts.map((part) => ({ name: part.className || part.tagName, box: part.getBoundingClientRect() }));
    const centers = boxes.map(({ box }) => box.top + box.height / 2);
    const style = getComputedStyle(header);
    const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) + parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    const tallest = Math.max(...boxes.map(({ box }) => box.height));
    const overlaps: string[] = [];
    // The status items with the header's other parts: an item that overflows its list lands on the mode control.
    const besides = Array.from(header.children).filter((child) => !child.className.split(' ').includes('status'));
    for (const group of [[...besides, ...Array.from(header.querySelectorAll('.status > div'))]]) {
      const sorted = group.map((part) => ({ name: part.className || part.tagName, box: part.getBoundingClientRect() })).sort((a, b) => a.box.left - b.box.left);
      for (let i = 1; i < sorted.length; i += 1) if (sorted[i]!.box.left < sorted[i - 1]!.box.right - 0.5) overlaps.push(`${sorted[i - 1]!.name} / ${sorted[i]!.name}`);
    }
    return { rowSpread: Math.max(...centers) - Math.min(...centers), extraHeight: header.getBoundingClientRect().height - tallest - padding, overlaps };
  });
}

for (const size of SIZES) {
  test(`at ${size.width}x${size.height} the header is one row and nothing runs off the window`, async ({ page, mino }) => {
    await page.setViewportSize(size);
    mino.server.enqueue({ text: 'Done.' });
    await mino.open();
    await mino.startSession();
    await ask(page, LONG_PROMPT);
    await expect(page.getByTestId('assistant-message').last()).toContainText('Done.');
    await expect(page.getByTestId('header-title')).toContainText('Please look through every file');
    await loosenMode(page, mino, 'accept-edits');

    const row = await headerRow(page);
    // One row: every part centred on one line, nothing side by side overlapping, no taller than its tallest part.
    expect(row.overlaps).toEqual([]);
    expect(row.rowSpread).toBeLessThanOrEqual(4);
    expect(row.extraHeight).toBeLessThanOrEqual(1);
    expect(await overflowing(page)).toEqual([]);
    for (const name of ['Settings', 'Send', 'Changes']) await expect(page.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 });
    await expect(page.getByLabel('Permission mode')).toBeInViewport({ ratio: 1 });
  });
}

test('at 800x600 the transcript keeps more than half the window height', async ({ page, mino }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await mino.open();
  await mino.startSession();
  const height = await page.getByTestId('transcript').evaluate((element: unknown) => (element as El).getBoundingClientRect().height);
  expect(height).toBeGreaterThanOrEqual(300);
});

test('the project path is cut in the middle: its start and the folder name stay, the full path is on hover', async ({ page, mino }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const deep = path.join(mino.project, 'a-rather-long-folder-name-for-a-client', 'another-long-level-of-folders', 'and-one-more-level', 'payments-service');
  await fs.mkdir(deep, { recursive: true });
  mino.picker.willPick(deep);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  const cell = page.getByTestId('header-project');
  await expect(cell).toHaveAttribute('title', deep);
  await expect(cell).toHaveText(deep);
  const parts = await cell.evaluate((found: unknown) => {
    const element = found as El;
    const head = element.querySelector('.project-path-head')!;
    const tail = element.querySelector('.project-path-tail')!;
    return { headCut: head.scrollWidth > head.clientWidth, tailWhole: tail.scrollWidth <= tail.clientWidth, headLeft: head.getBoundingClientRect().left, cellLeft: element.getBoundingClientRect().left };
  });
  expect(parts).toEqual({ headCut: true, tailWhole: true, headLeft: parts.cellLeft, cellLeft: parts.cellLeft });
  expect(await overflowing(page)).toEqual([]);
});

test('at 800x600 a large edit dialog scrolls its content and keeps Approve and Deny in view', async ({ page, mino }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const before = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  await mino.writeProject({ 'big.txt': before });
  mino.server.enqueue(
    { calls: [{ name: 'write_file', arguments: { path: 'big.txt', mode: 'overwrite', content: before.replaceAll('line', 'row') }, call_id: 'call_big' }] },
    { text: 'Not written.' },
  );
  await mino.open();
  await mino.startSession();
  await ask(page, 'Rename every line to row in big.txt.');
  const dialog = page.getByRole('dialog', { name: /Approve write_file/ });
  await expect(dialog).toBeVisible();
  for (const name of ['Approve', 'Deny']) await expect(dialog.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 });
  const box = await dialog.boundingBox();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(600);
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Not written.');
});

test('on a 2560 wide window prose keeps a readable measure while a code block may be wider', async ({ page, mino }) => {
  await page.setViewportSize({ width: 2560, height: 1200 });
  const paragraph = 'This answer is a long paragraph of prose that explains what the change does and why it matters. '.repeat(12);
  const code = `const table = [${Array.from({ length: 40 }, (_, i) => `'column_${i}'`).join(', ')}];`;
  mino.server.enqueue({ text: `${paragraph}\n\n\`\`\`ts\n${code}\n\`\`\`\n` });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Explain the change.');
  const answer = page.getByTestId('assistant-message').last();
  await expect(answer).toContainText('explains what the change does');
  const widths = await answer.evaluate((found: unknown) => {
    const element = found as El;
    const prose = Array.from(element.querySelectorAll('p')).find((p) => p.textContent?.includes('explains what'))!;
    const pre = element.querySelector('pre')!;
    return { prose: prose.getBoundingClientRect().width, pre: pre.getBoundingClientRect().width };
  });
  // 75ch is about 75 average character widths; allow a generous bound well under the 1,500 px lines of before.
  expect(widths.prose).toBeLessThanOrEqual(900);
  expect(widths.pre).toBeGreaterThan(widths.prose);
});

test('a long first prompt does not widen the session list or push its buttons off the window', async ({ page, mino }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const log = await SessionLog.create(mino.home, mino.project);
  await log.append({ type: 'user', text: LONG_PROMPT });
  await log.append({ type: 'turn_end', status: 'completed' });
  await log.close();
  mino.picker.willPick(mino.project);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  const item = page.getByTestId('session-item').filter({ hasText: log.id });
  await expect(item.getByRole('button', { name: /Resume/ })).toBeInViewport({ ratio: 1 });
  expect(await overflowing(page)).toEqual([]);

  // The same session in the sidebar of a session window.
  await page.getByRole('button', { name: 'New session' }).click();
  const listed = page.getByTestId('sidebar-item').filter({ hasText: log.id });
  await expect(listed).toBeVisible();
  expect((await listed.boundingBox())!.width).toBeLessThanOrEqual(320);
  expect(await overflowing(page)).toEqual([]);
});
