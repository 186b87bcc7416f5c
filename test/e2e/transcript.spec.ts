// What the transcript does with the model's text and with turns that end
// badly: safe Markdown, links only through a question, notices, failures,
// and a long saved session that stays light.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { SessionLog } from '../../src/main/core/sessions/sessionLog';
import { ask, expect, test } from './fixtures';

const UNSAFE_MARKDOWN = [
  'Here is **bold** text, a [docs link](https://example.com/docs), [a script](javascript:alert(1)) and [a local file](file:///etc/passwd).',
  '',
  '<img src="https://collector.example/x.png" onerror="alert(1)"> <b>raw html</b>',
  '',
  '![tracker](https://collector.example/pixel.png)',
].join('\n');

test('the answer renders as Markdown without raw HTML or images, and only an https link can open, after a question', async ({ page, mino }) => {
  mino.server.enqueue({ text: UNSAFE_MARKDOWN });
  await mino.open();
  await mino.startSession();
  await page.evaluate(() => {
    // window.open is never the way out: record any use of it.
    const page = globalThis as unknown as { windowOpens: string[]; open(url?: string | URL): null };
    page.windowOpens = [];
    page.open = (url) => {
      page.windowOpens.push(String(url));
      return null;
    };
  });
  await ask(page, 'Where are the docs?');
  const answer = page.getByTestId('assistant-message').last();
  await expect(answer.locator('strong')).toHaveText('bold');
  await expect(answer).toContainText('raw html');
  await expect(answer.locator('b, img, script')).toHaveCount(0);
  await expect(answer).toContainText('[image: tracker (https://collector.example/pixel.png)]');
  // Only the https link is a link; the others are plain text.
  await expect(answer.locator('a')).toHaveCount(1);
  await expect(answer.getByText('a script')).toBeVisible();
  await expect(answer.getByText('a local file')).toBeVisible();

  await answer.getByRole('link', { name: 'docs link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open this link in your browser?' });
  await expect(dialog).toContainText('https://example.com/docs');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(mino.openedLinks).toEqual([]);

  await answer.getByRole('link', { name: 'docs link' }).click();
  await dialog.getByRole('button', { name: 'Open link' }).click();
  await expect.poll(() => mino.openedLinks).toEqual(['https://example.com/docs']);
  expect(await page.evaluate(() => (globalThis as unknown as { windowOpens: string[] }).windowOpens)).toEqual([]);
  expect(page.url()).toContain('/index.html');
});

test('a middle, ctrl, meta or shift click on a link asks first too, and opens nothing on Cancel', async ({ page, mino, context }) => {
  mino.server.enqueue({ text: 'See the [docs link](https://example.com/docs).' });
  await mino.open();
  await mino.startSession();
  const popups: string[] = [];
  context.on('page', (opened) => popups.push(opened.url()));
  await ask(page, 'Where are the docs?');
  const link = page.getByTestId('assistant-message').last().getByRole('link', { name: 'docs link' });
  const dialog = page.getByRole('dialog', { name: 'Open this link in your browser?' });

  const clicks: Array<[string, Parameters<typeof link.click>[0]]> = [
    ['middle', { button: 'middle' }],
    ['ctrl', { modifiers: ['Control'] }],
    ['meta', { modifiers: ['Meta'] }],
    ['shift', { modifiers: ['Shift'] }],
  ];
  for (const [name, options] of clicks) {
    await link.click(options);
    await expect(dialog, `after a ${name} click`).toBeVisible();
    await expect(dialog).toContainText('https://example.com/docs');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  }
  expect(mino.openedLinks).toEqual([]);
  expect(popups).toEqual([]);

  // Confirming after a middle click opens the link, once, through main.
  await link.click({ button: 'middle' });
  await dialog.getByRole('button', { name: 'Open link' }).click();
  await expect.poll(() => mino.openedLinks).toEqual(['https://example.com/docs']);
  expect(popups).toEqual([]);
});

test('a notice and a failed turn show their messages', async ({ page, mino }) => {
  const minoDir = path.join(mino.home, '.mino');
  await fs.mkdir(minoDir, { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(minoDir, 'mcp.json'), JSON.stringify({ servers: [{ name: 'docs' }] }), { mode: 0o600 });
  mino.server.enqueue({ fail: 'failed', message: 'The model had an internal failure.' });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Hello?');
  await expect(page.getByTestId('notice').first()).toContainText('mcp.json');
  await expect(page.getByTestId('turn-end')).toContainText('internal failure');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
});

test('a long saved session is virtualized: few rows in the page, newest in view, oldest reachable by scrolling', async ({ page, mino }) => {
  const log = await SessionLog.create(mino.home, mino.project);
  const turns = 400;
  for (let i = 1; i <= turns; i += 1) {
    await log.append({ type: 'user', text: `Question number ${i}` });
    await log.append({ type: 'response', responseId: `resp_${i}`, output: [{ type: 'message', role: 'assistant', text: `Answer number ${i}` }] });
    await log.append({ type: 'turn_end', status: 'completed' });
  }
  await log.close();

  mino.picker.willPick(mino.project);
  await mino.open();
  await page.getByRole('button', { name: 'Open project…' }).click();
  await page.getByTestId('session-item').filter({ hasText: log.id }).getByRole('button', { name: 'Resume' }).click();
  const transcript = page.getByTestId('transcript');
  await expect(transcript.getByText(`Answer number ${turns}`, { exact: true })).toBeInViewport();
  expect(await transcript.locator('.transcript-row').count()).toBeLessThan(60);

  await transcript.evaluate((element) => element.scrollTo({ top: 0 }));
  await expect(transcript.getByText('Question number 1', { exact: true })).toBeInViewport();
  expect(await transcript.locator('.transcript-row').count()).toBeLessThan(60);
});

test('an answer streamed in pieces renders as the whole text does: a fence keeps its blank lines, a loose list stays one list', async ({ page, mino }) => {
  const text = ['Steps:', '', '1. Write', '', '2. Test', '', '```ts', 'const a = 1;', '', '', 'const b = 2;', '```', '', 'Done.'].join('\n');
  // Cut inside the fence and between a blank line and the list item after it.
  const cuts = [9, 12, 20, 40, 47, text.length];
  mino.server.enqueue({ text, deltas: cuts.map((end, i) => text.slice(i === 0 ? 0 : cuts[i - 1], end)) });
  await mino.open();
  await mino.startSession();
  await ask(page, 'How?');
  const answer = page.getByTestId('assistant-message').last();
  await expect(answer.getByText('Done.')).toBeVisible();
  await expect(answer.locator('ol')).toHaveCount(1);
  await expect(answer.locator('ol > li > p')).toHaveText(['Write', 'Test']);
  await expect(answer.locator('pre')).toHaveCount(1);
  expect(await answer.locator('pre code').textContent()).toBe('const a = 1;\n\n\nconst b = 2;\n');
});
