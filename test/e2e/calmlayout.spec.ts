// A window that stays calm while a turn runs: at every width from the smallest
// window to 2560, the transcript keeps its box (nothing above or below it grows
// or wraps: the session bar, the plan, the message box), and no two parts of
// the header or the session bar overlap, before, during and after the turn.
import * as fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { MIN_WINDOW } from '../../src/shared/windowSize';
import { expect, test } from './fixtures';

/** Types a question and sends it (the Send button by its exact name: a message's own buttons may say more). */
async function ask(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

const SIZES = [MIN_WINDOW, { width: 1024, height: 768 }, { width: 1280, height: 800 }, { width: 2560, height: 1440 }];

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  height: number;
  width: number;
}
interface El {
  className: string;
  tagName: string;
  children: ArrayLike<El>;
  getBoundingClientRect(): Box;
  querySelectorAll(selector: string): ArrayLike<El>;
}

/** The transcript's box and the overlapping pairs among the header's parts and the session bar's controls. */
async function measure(page: Page): Promise<{ transcript: { top: number; height: number }; overlaps: string[] }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelector(s: string): El | null } }).document;
    const transcript = doc.querySelector('[data-testid="transcript"]')!.getBoundingClientRect();
    const header = doc.querySelector('header.header')!;
    const bar = doc.querySelector('.session-bar')!;
    const groups = [
      [...Array.from(header.children).filter((child) => !child.className.split(' ').includes('status')), ...Array.from(header.querySelectorAll('.status > div'))],
      Array.from(bar.querySelectorAll('button, summary, .toolbar > span:not(.visually-hidden)')),
    ];
    const overlaps: string[] = [];
    for (const group of groups) {
      const boxes = group.map((element) => ({ name: `${element.tagName.toLowerCase()}.${element.className}`, box: element.getBoundingClientRect() })).filter(({ box }) => box.width > 0 && box.height > 0);
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          const a = boxes[i]!.box;
          const b = boxes[j]!.box;
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps.push(`${boxes[i]!.name} / ${boxes[j]!.name}`);
        }
      }
    }
    return { transcript: { top: Math.round(transcript.top), height: Math.round(transcript.height) }, overlaps };
  });
}

for (const size of SIZES) {
  test(`at ${size.width}x${size.height} nothing changes height or overlaps while a turn runs`, async ({ page, mino }) => {
    await page.setViewportSize(size);
    const plan = { steps: [{ step: 'Read the code', status: 'completed' }, { step: 'Run the check', status: 'in_progress' }, { step: 'Report', status: 'pending' }] };
    mino.server.enqueue(
      { text: 'Ready.' },
      { calls: [{ name: 'update_plan', arguments: plan, call_id: 'call_plan' }] },
      { calls: [{ name: 'bash', arguments: { command: 'echo waiting; while [ ! -e go ]; do sleep 0.05; done', sandbox: false }, call_id: 'call_wait' }] },
      { text: 'Done.' },
    );
    await mino.open();
    await mino.startSession();
    // A first turn, so the window shows what it shows between turns (usage, the instructions line).
    await ask(page, 'Get ready.');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Ready.');
    const before = await measure(page);
    expect(before.overlaps).toEqual([]);

    await ask(page, 'Plan, then run the check.');
    await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByTestId('live-output').last()).toContainText('waiting');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    const during = await measure(page);
    expect(during.overlaps).toEqual([]);
    expect(during.transcript).toEqual(before.transcript);

    await fs.writeFile(mino.projectFile('go'), '');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Done.');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
    const after = await measure(page);
    expect(after.overlaps).toEqual([]);
    expect(after.transcript).toEqual(before.transcript);
  });
}
