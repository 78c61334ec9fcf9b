import { chromium } from '@playwright/test';
import { expect, startServer, stopServer, test, type StartedServer } from './fixtures/vigil-fixture';

test('a stopped server shows as reconnecting, not reachable; restarted with a new token, as disconnected, naming the token', async ({ vigil }, testInfo) => {
  test.skip(vigil.kind !== 'served', 'only the served UI has a connection that can drop');
  const browser = await chromium.launch(testInfo.project.use.launchOptions);
  const first = await startServer(vigil.home);
  let second: StartedServer | undefined;
  try {
    const page = await browser.newPage();
    await page.goto(first.url);
    const connection = page.getByTestId('connection');
    await expect(connection).toHaveAttribute('data-state', 'connected');

    await stopServer(first);
    await expect(connection).toHaveAttribute('data-state', 'reconnecting');
    await expect(connection.locator('.connection-reason')).toContainText('not reachable');

    // The same address, a new token: the page's sessionStorage holds the old one, so the handshake is refused.
    second = await startServer(vigil.home, Number(new URL(first.url).port));
    await expect(connection).toHaveAttribute('data-state', 'disconnected', { timeout: 20_000 });
    await expect(connection.locator('.connection-reason')).toContainText('reopen the URL that vigil serve printed');
    await expect(connection.locator('.connection-reason')).toContainText('token');

    // Reopening the URL the new server printed connects again (only its fragment differs: no reload by itself).
    await page.goto(second.url);
    await expect(connection).toHaveAttribute('data-state', 'connected');
  } finally {
    await browser.close();
    await stopServer(first);
    if (second !== undefined) await stopServer(second);
  }
});
