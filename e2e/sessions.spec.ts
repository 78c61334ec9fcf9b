import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { connectAgent, runCli } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

test('two sessions change live, side by side, without a reload', async ({ page, vigil }, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('sessions-empty')).toBeVisible();
  await expect(page.getByTestId('mcp-snippet')).toContainText('"mcp"');
  if (vigil.kind === 'served') {
    // The empty state shows exactly what `vigil connect` prints for the same data folder.
    for (const client of ['claude-code', 'gemini-cli', 'vscode'] as const) {
      await page.getByTestId(`connect-${client}`).click();
      const { stdout } = await runCli(vigil.home, ['connect', client]);
      const lines = stdout.split('\n');
      const start = lines.findIndex((line) => line.startsWith('Configuration for')) + 2;
      const printed = lines.slice(start, lines.indexOf('', start)).join('\n');
      await expect(page.getByTestId('mcp-snippet-text').locator('pre')).toHaveText(printed);
    }
    await page.getByTestId('connect-claude-code').click();
  }
  await saveScreens(page, testInfo, 'sessions-empty');

  const rootA = path.join(vigil.workspace, 'alpha');
  const rootB = path.join(vigil.workspace, 'beta');
  await mkdir(rootA);
  await mkdir(rootB);
  const client = await connectAgent(vigil.home);
  try {
    const alpha = await client.openSession({ agent: 'alpha-agent', roots: [rootA], client: 'e2e' });
    const beta = await client.openSession({ agent: 'beta-agent', roots: [rootB], client: 'e2e' });
    const cardA = page.locator(`[data-testid="session-card"][data-session-id="${alpha.id}"]`);
    const cardB = page.locator(`[data-testid="session-card"][data-session-id="${beta.id}"]`);
    await expect(cardA).toBeVisible();
    await expect(cardB).toBeVisible();
    await expect(page.getByTestId('sessions-count')).toHaveText('2 live');

    await alpha.beginTurn('Add a greeting');
    await alpha.callTool('write_file', { path: path.join(rootA, 'hello.txt'), content: 'hello\n' });
    await expect(cardA).toHaveAttribute('data-calls', '1');
    await expect(cardA.getByTestId('session-last-call')).toContainText('write_file');
    await expect(cardA.getByTestId('session-last-call')).toContainText('hello.txt');
    await expect(cardA.getByTestId('session-turn')).toContainText('Turn 1');
    await expect(cardB).toHaveAttribute('data-calls', '0');

    await beta.beginTurn('List the files');
    await beta.callTool('terminal', { command: 'echo beta was here > note.txt' });
    await expect(cardB).toHaveAttribute('data-calls', '1');
    await expect(cardB.getByTestId('session-last-call')).toContainText('terminal');
    await expect(cardB.getByTestId('session-last-call')).toContainText('echo beta was here');

    // The transcript of the open session follows its calls live too.
    await cardA.getByRole('button', { name: /Open the transcript/ }).click();
    await expect(page.getByTestId('transcript-panel')).toBeVisible();
    await alpha.appendMessage('assistant', 'Greeting written.');
    await expect(page.getByTestId('transcript-message').filter({ hasText: 'Greeting written.' })).toBeVisible();
    await saveScreens(page, testInfo, 'sessions');

    await beta.close();
    await expect(cardB).toHaveAttribute('data-status', 'ended');
    await expect(page.getByTestId('sessions-count')).toHaveText('1 live · 1 ended');
  } finally {
    await client.close();
  }
});
