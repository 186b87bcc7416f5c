// What a person sees while a turn runs: that Mino waits for the model (and
// how long), a running command's output live with its elapsed time and then
// its exit code, a retry after 429 with its wait, Escape stopping the turn,
// and the Jump to latest control once they scrolled up.
import { ask, expect, test } from './fixtures';

test('from the moment a message is sent until the first output, the transcript says Mino waits for the model, counting seconds', async ({ page, mino }) => {
  mino.server.enqueue({ text: 'Here is the answer.', delayMs: 2600 });
  await mino.open();
  await mino.startSession();
  await ask(page, 'What is in this project?');
  const progress = page.getByTestId('turn-progress');
  await expect(progress).toContainText('Waiting for the model…');
  await expect(page.getByTestId('waiting-elapsed')).toHaveText(/^[12] s$/);
  // Still nothing from the model while the count goes on.
  await expect(page.getByTestId('assistant-message')).toHaveCount(0);
  await expect(page.getByTestId('waiting-elapsed')).toHaveText(/^2 s$/);
  await expect(page.getByTestId('assistant-message').last()).toContainText('Here is the answer.');
  await expect(progress).toBeHidden();
});

test('a running bash command shows its elapsed time and its newest output live, then its exit code at the top of the card', async ({ page, mino }) => {
  const command = 'for i in $(seq 1 30); do echo "line $i"; done; sleep 2; echo "line 31"; sleep 2; exit 3';
  mino.server.enqueue({ calls: [{ name: 'bash', arguments: { command }, call_id: 'call_count' }] }, { text: 'It printed 31 lines.' });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Count.');
  await page.getByRole('dialog', { name: 'Approve bash?' }).getByRole('button', { name: 'Approve' }).click();

  const card = page.locator('[data-testid="tool-card"][data-tool="bash"]');
  const live = card.getByTestId('live-output');
  // Tail first: the newest lines are the ones in view, while the command still runs.
  await expect(live).toHaveText(/^line 19\n[\s\S]*\nline 30$/);
  await expect(card).toHaveAttribute('data-status', 'running');
  await expect(card.getByTestId('tool-elapsed')).toHaveText(/^\d+ s$/);
  await expect(live).toContainText('line 31');
  await expect(card).toHaveAttribute('data-status', 'running');
  await expect(card.getByTestId('tool-elapsed')).toHaveText(/^[2-9] s$/);

  // Ended: the exit code at the top, the live view replaced by the result.
  await expect(card.getByTestId('command-ending')).toHaveText('Exit code 3');
  await expect(card).toHaveAttribute('data-status', 'failed');
  await expect(live).toBeHidden();
  await expect(card.getByTestId('tool-output')).toContainText('line 1\nline 2\n');
  const endingTop = await card.getByTestId('command-ending').boundingBox();
  const outputTop = await card.getByTestId('tool-output').boundingBox();
  expect(endingTop!.y).toBeLessThan(outputTop!.y);
  await expect(page.getByTestId('assistant-message').last()).toContainText('It printed 31 lines.');
});

test('a 429 then success says the service rate-limited the request and how long Mino waits before trying again', async ({ page, mino }) => {
  mino.server.enqueue({ httpStatus: 429, headers: { 'retry-after': '2' } }, { text: 'Answered on the second try.' });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Hello?');
  const notice = page.getByTestId('retry-notice');
  await expect(notice).toHaveText('The model service answered 429 (rate limited); retrying in 2 s (attempt 2 of 4).');
  await expect(page.getByTestId('turn-progress')).toContainText('Waiting for the model…');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Answered on the second try.');
  await expect(notice).toBeHidden();
  expect(mino.server.requests).toHaveLength(2);
  // Transient: nothing of it stays in the transcript.
  await expect(page.getByTestId('transcript')).not.toContainText('rate limited');
});

test('Escape in the composer stops a running turn, and the keyboard stays in the composer', async ({ page, mino }) => {
  mino.server.enqueue({ hangAfterDeltas: ['Thinking about', ' it'] });
  await mino.open();
  await mino.startSession();
  const box = page.getByRole('textbox', { name: 'Message to Mino' });
  await box.fill('Take your time.');
  await box.press('Enter');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Thinking about it');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(box).toBeFocused();
  await box.press('Escape');
  await expect(page.getByTestId('turn-end')).toContainText('Stopped.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  await expect(box).toBeFocused();
});

test('scrolled up, Jump to latest appears and brings the view back to the end', async ({ page, mino }) => {
  const long = Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
  mino.server.enqueue({ text: long });
  await mino.open();
  await mino.startSession();
  await ask(page, 'Write a lot.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Line 120 of a long answer.');
  const transcript = page.getByTestId('transcript');
  const jump = page.getByRole('button', { name: 'Jump to latest' });
  await expect(jump).toBeHidden();
  await transcript.hover();
  await page.mouse.wheel(0, -1500);
  await expect(jump).toBeVisible();
  await jump.click();
  await expect(jump).toBeHidden();
  await expect
    .poll(() => transcript.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight))
    .toBeLessThan(48);
});
