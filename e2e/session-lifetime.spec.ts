import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { sessionColourClass } from '../renderer/model/session-lanes';
import { connectMcpAgent } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, startServer, stopServer, test } from './fixtures/vigil-fixture';

// The server must start with a short idle time, so this spec starts it itself (no `page` fixture).
test('an MCP client that exits without DELETE reads "disconnected" after the idle time, and keeps its colour and last-active time across a restart', async ({
  vigil,
}, testInfo) => {
  test.skip(vigil.kind !== 'served', 'runs against vigil serve in Chromium');
  await writeFile(path.join(vigil.home, 'config.json'), JSON.stringify({ sessions: { idleMinutes: 0.02 } }));
  const { launchOptions, viewport } = testInfo.project.use;
  const browser = await chromium.launch(launchOptions);
  let server = await startServer(vigil.home);
  try {
    const page = await (await browser.newContext({ viewport: viewport ?? null })).newPage();
    await page.goto(server.url);
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

    const client = await connectMcpAgent(vigil.home, 'leaving-agent', vigil.workspace);
    await client.callTool({ name: 'write_file', arguments: { path: 'hello.txt', content: 'hello\n' } });
    const card = page.getByTestId('session-card').filter({ hasText: 'leaving-agent' });
    await expect(card).toHaveAttribute('data-calls', '1');
    await expect(card).toHaveAttribute('data-status', /^(working|idle)$/u);
    const id = (await card.getAttribute('data-session-id')) ?? '';
    await expect(card).toHaveClass(new RegExp(`\\b${sessionColourClass(id)}\\b`, 'u'));

    // The SDK's close(): the transport goes, no HTTP DELETE is sent.
    await client.close();
    await expect(card).toHaveAttribute('data-status', 'disconnected');
    await expect(card.getByTestId('session-status')).toHaveText('disconnected');
    await expect(page.getByTestId('sessions-count')).toHaveText('0 live · 1 disconnected');
    const lastActive = (await card.getAttribute('data-last-active-at')) ?? '';
    await saveScreens(page, testInfo, 'sessions-disconnected');

    await stopServer(server);
    server = await startServer(vigil.home);
    await page.goto(server.url);
    const again = page.locator(`[data-testid="session-card"][data-session-id="${id}"]`);
    await expect(again).toHaveAttribute('data-status', 'disconnected');
    await expect(again).toHaveAttribute('data-last-active-at', lastActive);
    await expect(again).toHaveClass(new RegExp(`\\b${sessionColourClass(id)}\\b`, 'u'));
  } finally {
    await browser.close();
    await stopServer(server);
  }
});
