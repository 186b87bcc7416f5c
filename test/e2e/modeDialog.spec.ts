// The mode confirmation is opened from the header, whose items never wrap:
// its warning must still wrap inside the dialog, not run out of it.
import { expect, test } from './fixtures';

test.use({ viewport: { width: 800, height: 600 } });

test("the mode confirmation's warning wraps inside the dialog instead of running past its edge", async ({ page, mino }) => {
  await mino.open();
  await mino.startSession();
  await page.getByLabel('Permission mode').selectOption('accept-edits');
  const dialog = page.getByRole('dialog', { name: 'Switch to this mode?' });
  await expect(dialog).toBeVisible();
  const overflow = await dialog.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return [...element.querySelectorAll('*')].filter((child) => child.getBoundingClientRect().right > box.right + 0.5).map((child) => child.textContent?.slice(0, 40));
  });
  expect(overflow).toEqual([]);
  expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
});
