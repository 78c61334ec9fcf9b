import { expect, test } from './fixtures/vigil-fixture';

test('the app connects to its core and shows the connected state', async ({ page, vigil }) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(page.locator('.app-home')).toHaveText(vigil.home);
});

test('the navigation reaches every screen by click and by keyboard', async ({ page }) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  for (const screen of ['timeline', 'memory', 'approvals', 'sessions']) {
    await page.getByTestId(`nav-${screen}`).click();
    await expect(page.getByTestId('app')).toHaveAttribute('data-screen', screen);
  }
  await page.keyboard.press('Alt+2');
  await expect(page.getByTestId('app')).toHaveAttribute('data-screen', 'timeline');
  await page.getByTestId('nav-timeline').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('app')).toHaveAttribute('data-screen', 'memory');
});

test('the page address no longer shows the token after the first load', ({ page, vigil }) => {
  test.skip(vigil.kind !== 'served', 'only the served UI has a URL token');
  expect(page.url()).not.toContain('token=');
});
