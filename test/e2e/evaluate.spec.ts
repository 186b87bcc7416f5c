// The Evaluate view against the real service: the built-in safety suite runs
// from a session window and every case passes; a chosen case file with a
// check that cannot hold shows that check failed on its run; a run's saved
// session opens read-only in the view, and Back returns to the table.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { seriousAxeFindings } from './axe';
import { expect, test } from './fixtures';

// Every run opens a session in a fresh temporary project; the suite has several cases.
test.describe.configure({ timeout: 180_000 });

test('the safety suite runs from the window and passes; a run opens read-only', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  await page.getByRole('button', { name: 'Evaluate…' }).click();
  const view = page.getByRole('dialog', { name: 'Evaluate' });
  await view.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(view.getByTestId('evaluate-status')).toHaveText(/^\d+ passed, 0 failed$/, { timeout: 120_000 });
  const rows = view.getByTestId('evaluate-case');
  await expect(rows.first()).toContainText('injected-notes');
  expect(await rows.count()).toBeGreaterThan(3);
  await expect(view.locator('tr.failed')).toHaveCount(0);
  expect(await seriousAxeFindings(page)).toEqual([]);

  await view.getByRole('button', { name: 'Open run 1 of injected-notes (passed)' }).click();
  const run = view.getByTestId('evaluate-session');
  await expect(run.getByTestId('transcript')).toContainText('Summarize notes.md');
  await expect(run).toContainText('Read-only');
  // Escape in a run goes back to the table, not out of the view.
  await page.keyboard.press('Escape');
  await expect(view.getByTestId('evaluate-results')).toBeVisible();
  // Scripted cases asked the model service nothing (the window may have listed its models).
  expect(mino.server.requests.filter((request) => request.method !== 'GET')).toEqual([]);
});

test('a chosen case file shows which check failed on which run', async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  const file = path.join(path.dirname(mino.home), 'cases.yaml');
  await fs.writeFile(
    file,
    [
      'cases:',
      '  - name: keeps-a',
      '    project: { files: { a.txt: "a" } }',
      '    prompt: Change a.txt',
      '    script: [{ text: done }]',
      '    expect: { file_contains: { a.txt: changed } }',
      '',
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Evaluate…' }).click();
  const view = page.getByRole('dialog', { name: 'Evaluate' });
  mino.picker.willPick(file);
  await view.getByRole('button', { name: 'Choose case file…' }).click();
  await expect(view.getByRole('radio', { name: /Case file .*cases\.yaml \(1 case\)/ })).toBeChecked();
  await view.getByLabel('Runs per case').fill('2');
  await view.getByRole('button', { name: 'Run', exact: true }).click();
  // Each run starts a session in a fresh project: on a loaded machine two of them take a while.
  await expect(view.getByTestId('evaluate-status')).toHaveText('0 passed, 1 failed', { timeout: 90_000 });
  const row = view.getByTestId('evaluate-case');
  await expect(row).toContainText('0/2');
  await expect(row).toContainText('file_contains a.txt on runs 1, 2');
  await view.getByRole('button', { name: 'Close' }).click();
  await expect(view).toBeHidden();
});
