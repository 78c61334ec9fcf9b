import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectAgent } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

test('rewind an ended session: its code goes back; its conversation is refused, saying why', async ({
  page,
  vigil,
}, testInfo) => {
  const notes = path.join(vigil.workspace, 'notes.txt');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const client = await connectAgent(vigil.home);
  try {
    const session = await client.openSession({ agent: 'ender', roots: [vigil.workspace] });
    await session.beginTurn('Write the first version');
    await session.callTool('write_file', { path: notes, content: 'version one\n' });
    await session.endTurn();
    await session.beginTurn('Rewrite it');
    await session.callTool('write_file', { path: notes, content: 'version two\n' });
    await session.endTurn();
    // Closed cleanly, as Claude Code's sessions are when it exits.
    await session.close();

    const card = page.locator(`[data-testid="session-card"][data-session-id="${session.id}"]`);
    await card.getByRole('button', { name: /Open the transcript/ }).click();
    const turnTwo = page.locator('[data-testid="transcript-turn"][data-turn="2"]');
    await turnTwo.getByTestId('rewind-here').click();

    // An ended session starts at "Code only": there is no agent left to tell.
    const plan = page.getByTestId('rewind-plan');
    await expect(page.getByTestId('rewind-mode-code')).toHaveAttribute('aria-checked', 'true');
    await expect(plan.getByTestId('plan-restore')).toContainText('notes.txt');

    // Asking for the conversation too shows why it cannot be, in the dialog.
    await page.getByTestId('rewind-mode-both').click();
    await expect(plan.getByTestId('error-notice')).toContainText('has ended');
    await expect(plan.getByTestId('error-notice')).toContainText('Code only');
    await saveScreens(page, testInfo, 'rewind-ended-refused');

    await page.getByTestId('rewind-mode-code').click();
    await expect(plan.getByTestId('plan-restore')).toContainText('notes.txt');
    await expect(plan.getByTestId('error-notice')).toHaveCount(0);
    await plan.getByTestId('plan-confirm').click();
    await expect(plan).toHaveCount(0);
    await expect(page.getByTestId('toast').filter({ hasText: 'Rewound to the start of turn 2' })).toBeVisible();
    expect(await readFile(notes, 'utf8')).toBe('version one\n');
  } finally {
    await client.close();
  }
});

test('a failing rewind shows its reason in the dialog, beside the plan made again', async ({
  page,
  vigil,
}, testInfo) => {
  const notes = path.join(vigil.workspace, 'notes.txt');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const client = await connectAgent(vigil.home);
  try {
    const session = await client.openSession({ agent: 'stale', roots: [vigil.workspace] });
    await session.beginTurn('Write the first version');
    await session.callTool('write_file', { path: notes, content: 'version one\n' });
    await session.endTurn();
    await session.beginTurn('Rewrite it');
    await session.callTool('write_file', { path: notes, content: 'version two\n' });
    await session.endTurn();

    await page
      .locator(`[data-testid="session-card"][data-session-id="${session.id}"]`)
      .getByRole('button', { name: /Open the transcript/ })
      .click();
    await page.locator('[data-testid="transcript-turn"][data-turn="2"]').getByTestId('rewind-here').click();
    const plan = page.getByTestId('rewind-plan');
    await expect(plan.getByTestId('plan-restore')).toContainText('notes.txt');

    // Someone edits the file after the preview: the rewind refuses, and the dialog says so.
    await writeFile(notes, 'edited by hand after the preview\n');
    await plan.getByTestId('plan-confirm').click();
    const notice = plan.getByTestId('error-notice');
    await expect(notice).toContainText('changed since the rewind was previewed');
    await expect(notice).toHaveAttribute('data-code', 'conflict');
    // The plan made again sees the hand edit as someone else's later change: kept unless ticked.
    await expect(plan.getByTestId('rewind-others')).toContainText('notes.txt');
    await expect(plan.getByTestId('rewind-others')).toContainText('keep theirs');
    await saveScreens(page, testInfo, 'rewind-failed');
    expect(await readFile(notes, 'utf8')).toBe('edited by hand after the preview\n');
  } finally {
    await client.close();
  }
});
