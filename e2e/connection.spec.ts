import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { connectMcpAgent } from './fixtures/agents';
import { callMcpTool } from './fixtures/mcp-calls';
import { saveScreens } from './fixtures/screens';
import { expect, startServer, stopServer, test, type StartedServer } from './fixtures/vigil-fixture';

test('a stopped server shows as reconnecting, not reachable; restarted with a new token, as disconnected, naming the token', async ({
  vigil,
}, testInfo) => {
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

test('while the server is stopped every action is off and no figure reads as current; after a restart with a new token the page shows the way back, and a pasted address reconnects', async ({
  vigil,
}, testInfo) => {
  test.skip(vigil.kind !== 'served', 'only the served UI has a connection that can drop');
  await writeFile(path.join(vigil.workspace, 'app.ts'), 'export const v = 1;\n');
  // Every touch waits for a person: the approvals screen has a card with its buttons.
  await writeFile(
    path.join(vigil.home, 'config.json'),
    JSON.stringify({
      policy: {
        rules: [{ effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks for every touch' }],
      },
    }),
  );
  const browser = await chromium.launch(testInfo.project.use.launchOptions);
  const first = await startServer(vigil.home);
  let second: StartedServer | undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(first.url);
    const connection = page.getByTestId('connection');
    await expect(connection).toHaveAttribute('data-state', 'connected');
    const client = await connectMcpAgent(vigil.home, 'alpha', vigil.workspace);
    const wrote = await callMcpTool(
      client,
      'write_file',
      { path: 'app.ts', content: 'export const v = 2;\n' },
      { id: 't1', userMessage: 'Bump the version' },
    );
    expect(wrote.isError, wrote.text).toBe(false);
    // Left waiting: the server stops with it pending (the call fails with the server, which the test does not await).
    void callMcpTool(client, 'terminal', { command: 'touch marker' }, { id: 't2' }).catch(() => undefined);

    // Connected: the detail shows what differs now, and its actions are on.
    await page.keyboard.press('Alt+2');
    const row = page.locator(`[data-testid="timeline-entry"][data-checkpoint-id="${wrote.checkpointId ?? 'none'}"]`);
    await row.click();
    await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('diff-summary')).toHaveText(/^1 file differs/);
    await expect(page.getByTestId('restore-all')).toBeEnabled();
    await expect(page.getByTestId('checkpoint-now')).toBeEnabled();
    // The row counts its turn's own change; every actor's changes since (the live folder) agree, so they are not repeated.
    await expect(row.getByTestId('row-stats')).toHaveAttribute('data-scope', 'turn');
    await expect(row.getByTestId('row-stats')).toHaveText('+1 −1 · 1 file this turn');

    await stopServer(first);
    await expect(connection).toHaveAttribute('data-state', 'reconnecting');
    const notice = page.getByTestId('connection-notice');
    await expect(notice).toContainText('Every action is off until the link is back, and nothing below is current');
    // Every button and field of the screen is off; the figures say they cannot be current.
    const actions = page.getByTestId('app-actions');
    // A disabled fieldset: every control inside it is off (Playwright reads the controls, not the fieldset).
    await expect(actions).toHaveAttribute('disabled', '');
    await expect(page.getByTestId('restore-all')).toBeDisabled();
    await expect(page.getByTestId('checkpoint-now')).toBeDisabled();
    await expect(actions.locator('button:enabled, input:enabled')).toHaveCount(0);
    await expect(page.getByTestId('diff-stale')).toHaveText('out of date: cannot compare now');
    // The turn's own change is history; the live comparison says it cannot be current.
    await expect(row.getByTestId('row-all-stats')).toHaveText(' · live changes not known: not connected');
    await saveScreens(page, testInfo, 'disconnected-timeline');
    // The approval card stays to read, its buttons off, and A (the oldest card's key) does nothing.
    await page.keyboard.press('Alt+4');
    const card = page.getByTestId('approval-card');
    await expect(card).toHaveCount(1);
    await expect(page.getByTestId('approvals-count')).toHaveText('1 waiting when the link was lost');
    // No countdown runs to a denial the stopped server will never make: only the deadline, as not known.
    await expect(card.getByTestId('approval-deadline')).toContainText('Not known while disconnected');
    await expect(card.locator('.countdown[data-state="running"]')).toHaveCount(0);
    await expect(card.getByRole('button')).not.toHaveCount(0);
    for (const button of await card.getByRole('button').all()) await expect(button).toBeDisabled();
    await page.keyboard.press('a');
    await expect(card).toHaveCount(1);
    await expect(card).toHaveAttribute('data-state', 'waiting');

    // The same address, a new token: the page's token is refused, and the page shows the way back in full.
    second = await startServer(vigil.home, Number(new URL(first.url).port));
    await expect(connection).toHaveAttribute('data-state', 'disconnected', { timeout: 20_000 });
    await expect(notice).toHaveAttribute('data-cause', 'refused');
    await expect(notice.getByTestId('connection-notice-reason')).toContainText(
      'reopen the URL that vigil serve printed',
    );
    const wayBack = notice.getByTestId('connection-way-back');
    await expect(wayBack).toContainText('printed in its terminal when it started');
    await expect(wayBack).toContainText(`${path.join(vigil.home, 'serve.json')} holds only the command line’s token`);
    await expect(wayBack).toContainText('vigil serve');
    await expect(page.getByTestId('connection-address')).toBeEditable();
    await saveScreens(page, testInfo, 'disconnected-token-refused');
    // Something that is not the address says why, and does not leave the page.
    await page.getByTestId('connection-address').fill('not an address');
    await page.getByTestId('connection-open').click();
    await expect(page.getByTestId('connection-address-problem')).toBeVisible();
    await expect(connection).toHaveAttribute('data-state', 'disconnected');
    // The address the new server printed gets back in, and the actions are on again.
    await page.getByTestId('connection-address').fill(second.url);
    await page.getByTestId('connection-open').click();
    await expect(connection).toHaveAttribute('data-state', 'connected');
    await expect(notice).toHaveCount(0);
    await expect(actions).not.toHaveAttribute('disabled');
    await expect(page.getByTestId('approval-card')).toHaveCount(0);
    await client.close().catch(() => undefined);
  } finally {
    await browser.close();
    await stopServer(first);
    if (second !== undefined) await stopServer(second);
  }
});
