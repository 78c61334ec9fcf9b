import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Locator } from '@playwright/test';
import { connectAgent, connectMcpAgent } from './fixtures/agents';
import { callMcpTool } from './fixtures/mcp-calls';
import { saveScreenAsIs, saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

/** Names that differ only at the end, and long ones: each card must show all of it. */
const agents = [
  'codex-beta',
  'codex-beta-2',
  'claude-code-refactoring-agent',
  'gemini-cli-documentation-writer',
] as const;

/** Whether an element shows its whole text (nothing cut off by an ellipsis). */
function isWhole(locator: Locator): Promise<boolean> {
  // The e2e code compiles without DOM types: the element is described by the two widths it reads.
  return locator.evaluate((element) => {
    const box = element as unknown as { readonly scrollWidth: number; readonly clientWidth: number };
    return box.scrollWidth <= box.clientWidth + 1;
  });
}

test('four concurrent sessions side by side at 1440×900: full names, prompts, last five calls, files; still in view beside an open transcript', async ({
  page,
  vigil,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // Every `touch` waits for a person, so one card has an approval pending.
  await writeFile(
    path.join(vigil.home, 'config.json'),
    JSON.stringify({
      policy: {
        rules: [{ effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks for every touch' }],
      },
    }),
  );
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const clients: Client[] = [];
  const vigilClient = await connectAgent(vigil.home, 'finisher');
  try {
    const roots = agents.map((agent) => path.join(vigil.workspace, agent));
    for (const root of roots) await mkdir(root);
    for (const [index, agent] of agents.entries())
      clients.push(await connectMcpAgent(vigil.home, agent, roots[index] ?? vigil.workspace));
    // Six calls each, all four at once: the cards keep the last five.
    const noisy = `Fix the \u001b[31mflaky\u001b[0m tests\n${'and explain every step in detail. '.repeat(60)}\nSecond paragraph.`;
    await Promise.all(
      clients.map(async (client, index) => {
        const message = index === 0 ? noisy : `Task ${index + 1}: tidy up ${agents[index] ?? ''}`;
        for (let call = 1; call <= 6; call += 1) {
          const outcome = await callMcpTool(
            client,
            'write_file',
            { path: `file-${call}.txt`, content: `line one\nline two ${call}\n` },
            { id: 'turn-1', userMessage: message },
          );
          expect(outcome.isError, outcome.text).toBe(false);
        }
      }),
    );
    const waiting = callMcpTool(
      clients[1] as Client,
      'terminal',
      { command: 'touch waiting.txt' },
      { id: 'turn-2', userMessage: 'Make a marker' },
    );
    // A fifth session that ended folds into the "Ended" section.
    const finished = await vigilClient.openSession({ agent: 'finished-agent', roots: [vigil.workspace] });
    await finished.close();

    const cards = page.getByTestId('sessions-live').getByTestId('session-card');
    await expect(cards).toHaveCount(4);
    for (const [index, agent] of agents.entries()) {
      const card = cards.filter({ has: page.locator(`[data-testid="session-agent"]:text-is("${agent}")`) });
      await expect(card).toHaveCount(1);
      await expect(card).toBeInViewport();
      expect(await isWhole(card.getByTestId('session-agent')), `${agent} is shown whole`).toBe(true);
      await expect(card.getByTestId('session-call')).toHaveCount(5);
      if (index !== 1) await expect(card.getByTestId('session-call').first()).toContainText('file-6.txt');
      await expect(card.getByTestId('session-files')).toContainText('file-6.txt');
      await expect(card.getByTestId('session-file').first()).toContainText('+2 −0');
    }
    const pending = cards.filter({ hasText: 'codex-beta-2' }).filter({ has: page.getByTestId('session-pending') });
    await expect(pending.getByTestId('session-pending')).toHaveText('1 approval pending');
    expect(await isWhole(pending.getByTestId('session-agent'))).toBe(true);
    // A huge multi-line message with control characters: one clean line on the card.
    const noisyCard = cards.filter({ has: page.locator('[data-testid="session-agent"]:text-is("codex-beta")') });
    await expect(noisyCard.getByTestId('session-prompt')).toHaveText('Fix the \\u001b[31mflaky\\u001b[0m tests …');
    await expect(page.getByTestId('sessions-ended')).not.toHaveAttribute('open');
    await expect(page.getByTestId('sessions-ended')).toContainText('Ended');
    await saveScreenAsIs(page, testInfo, 'side-by-side');

    // Opening a transcript keeps every other session in view, beside it.
    await noisyCard.getByRole('button', { name: /Open the transcript/ }).click();
    await expect(page.getByTestId('transcript-panel')).toBeVisible();
    for (const agent of agents)
      await expect(
        cards.filter({ has: page.locator(`[data-testid="session-agent"]:text-is("${agent}")`) }),
      ).toBeInViewport();
    // The transcript keeps the message whole, on its lines.
    await expect(page.getByTestId('transcript-message').first()).toContainText('Second paragraph.');
    await saveScreenAsIs(page, testInfo, 'side-by-side-transcript');
    await saveScreens(page, testInfo, 'side-by-side-transcript');

    await page.keyboard.press('Alt+4');
    await page.keyboard.press('d');
    const denied = await waiting;
    expect(denied.decision).toBe('denied');

    // Alt+N gives the screen's main list the focus: the memory files, then the live sessions, where arrows step between cards.
    await page.keyboard.press('Alt+3');
    await expect(page.locator('.memory-files')).toBeFocused();
    await page.keyboard.press('Alt+1');
    await expect(page.getByTestId('sessions-live')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('sessions-live').locator('.session-card-open').first()).toBeFocused();
  } finally {
    for (const client of clients) await client.close();
    await vigilClient.close();
  }
});
