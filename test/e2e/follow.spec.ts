// The transcript keeps following new output while the person does not scroll:
// over twenty long turns, streamed in many small paced chunks, each ending in
// a code block, in bypass mode (its message shown) and in manual mode with a
// command to approve, the end of every turn is in view when it ends.
import type { Page } from '@playwright/test';
import { ask, expect, loosenMode, test } from './fixtures';

const TURNS = 20;

/** A long answer ending in a code block, cut into many small deltas as a real service sends them. */
function longAnswer(turn: number): { text: string; deltas: string[]; deltaDelayMs: number } {
  const prose = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} of answer ${turn}: the file reads its settings, then writes them back.`).join('\n\n');
  const code = ['```ts', ...Array.from({ length: 14 }, (_, i) => `const value${i} = read(${i}); // answer ${turn}`), '```'].join('\n');
  const text = `${prose}\n\n${code}`;
  const deltas = text.match(/[\s\S]{1,40}/g) ?? [text];
  return { text, deltas, deltaDelayMs: 2 };
}

/** How far the transcript's end is below what it shows, in pixels. */
function gapBelow(page: Page): Promise<number> {
  return page.getByTestId('transcript').evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
}

async function expectEndInView(page: Page, turn: number): Promise<void> {
  const last = page.getByTestId('assistant-message').last();
  await expect(last).toContainText(`const value13 = read(13); // answer ${turn}`);
  await expect.poll(() => gapBelow(page), { message: `turn ${turn} ended out of view` }).toBeLessThan(48);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeHidden();
}

test('over twenty long turns in bypass mode, each turn ends in view without the person scrolling', async ({ page, mino }) => {
  test.setTimeout(180_000);
  await mino.open();
  await mino.startSession();
  await loosenMode(page, mino, 'bypass');
  await expect(page.getByTestId('window-message')).toContainText('bypass');
  for (let turn = 1; turn <= TURNS; turn += 1) {
    mino.server.enqueue(longAnswer(turn));
    await ask(page, `Explain part ${turn}.`);
    await expectEndInView(page, turn);
  }
});

test('in manual mode, turns that approve a command and end in a code block end in view', async ({ page, mino }) => {
  test.setTimeout(120_000);
  await mino.open();
  await mino.startSession();
  for (let turn = 1; turn <= 6; turn += 1) {
    mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command: `echo part ${turn}` }, call_id: `call_${turn}` }] }, longAnswer(turn));
    await ask(page, `Run part ${turn}.`);
    await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();
    await expectEndInView(page, turn);
  }
});
