import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { connectAgent } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

test('rewind a turn (code and conversation): the files and the transcript go back', async ({
  page,
  vigil,
}, testInfo) => {
  const notes = path.join(vigil.workspace, 'notes.txt');
  const extra = path.join(vigil.workspace, 'extra.txt');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const client = await connectAgent(vigil.home);
  try {
    const session = await client.openSession({ agent: 'rewinder', roots: [vigil.workspace] });
    const rewound = new Promise<number[]>((resolve) =>
      session.on('session.rewound', ({ rewind }) => resolve(rewind.rewoundTurns)),
    );
    await session.beginTurn('Write the first version');
    await session.callTool('write_file', { path: notes, content: 'version one\n' });
    await session.endTurn();
    await session.beginTurn('Rewrite it and add a file');
    await session.callTool('write_file', { path: notes, content: 'version two\n' });
    await session.callTool('write_file', { path: extra, content: 'created in turn two\n' });
    await session.appendMessage('assistant', 'Rewrote notes.txt and added extra.txt.');
    await session.endTurn();

    await page
      .locator(`[data-testid="session-card"][data-session-id="${session.id}"]`)
      .getByRole('button', { name: /Open the transcript/ })
      .click();
    const turnTwo = page.locator('[data-testid="transcript-turn"][data-turn="2"]');
    await expect(turnTwo).toHaveAttribute('data-rewound', 'false');
    await expect(turnTwo.getByTestId('transcript-call')).toHaveCount(2);
    await turnTwo.getByTestId('rewind-here').click();

    // The plan comes first: turn 2 is forgotten, notes.txt goes back, extra.txt goes away.
    const plan = page.getByTestId('rewind-plan');
    await expect(page.getByTestId('rewind-mode-both')).toHaveAttribute('aria-checked', 'true');
    await expect(plan.getByTestId('rewind-turns')).toContainText('Turn 2');
    await expect(plan.getByTestId('plan-restore')).toContainText('notes.txt');
    await expect(plan.getByTestId('plan-delete')).toContainText('extra.txt');
    await saveScreens(page, testInfo, 'rewind-plan');
    expect(await readFile(notes, 'utf8')).toBe('version two\n');

    await plan.getByTestId('plan-confirm').click();
    await expect(plan).toHaveCount(0);
    await expect(turnTwo).toHaveAttribute('data-rewound', 'true');
    await expect(turnTwo.getByTestId('rewind-here')).toHaveCount(0);
    await expect(page.getByTestId('toast').filter({ hasText: 'Rewound to the start of turn 2' })).toBeVisible();
    expect(await readFile(notes, 'utf8')).toBe('version one\n');
    await expect(access(extra)).rejects.toThrow();
    expect(await rewound).toEqual([2]);
    await saveScreens(page, testInfo, 'rewind-done');
  } finally {
    await client.close();
  }
});
