import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { connectMcpAgent, runCli } from './fixtures/agents';
import { callMcpTool } from './fixtures/mcp-calls';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

/** The timeline row of a checkpoint. */
function row(page: Page, id: string | undefined) {
  return page
    .getByTestId('timeline-list')
    .locator(`[data-testid="timeline-entry"][data-checkpoint-id="${id ?? 'none'}"]`);
}

/** The timeline rows whose reason (the commit subject) is exactly `reason`. */
function rowsWithReason(page: Page, reason: string) {
  return page
    .getByTestId('timeline-list')
    .locator('[data-testid="timeline-entry"]', { has: page.locator(`[data-testid="row-reason"][title="${reason}"]`) });
}

test('who did what: an agent command is never "edited outside", an edit outside Vigil is; the app and the CLI carry their own names; rows read as the turns', async ({
  page,
  vigil,
}, testInfo) => {
  const ws = vigil.workspace;
  await page.setViewportSize({ width: 1440, height: 900 });
  await mkdir(path.join(ws, 'legacy', 'deep'), { recursive: true });
  await mkdir(path.join(ws, 'src'));
  await writeFile(path.join(ws, 'legacy', 'a.txt'), 'a\n');
  await writeFile(path.join(ws, 'legacy', 'deep', 'b.txt'), 'b\n');
  await writeFile(path.join(ws, 'notes.txt'), 'one\n');
  await writeFile(path.join(ws, 'src', 'app.ts'), 'export const v = 1;\n');
  // Every rm waits for a person: the test gives it with A, no card focused (the oldest waiting).
  await writeFile(
    path.join(vigil.home, 'config.json'),
    JSON.stringify({
      policy: { rules: [{ effect: 'ask', tool: 'terminal', command: 'rm', reason: 'the test asks before every rm' }] },
    }),
  );
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const client = await connectMcpAgent(vigil.home, 'alpha', ws);
  try {
    await page.keyboard.press('Alt+4');
    const removing = callMcpTool(
      client,
      'terminal',
      { command: 'rm -rf legacy' },
      { id: 't1', userMessage: 'Remove the legacy folder\nIt is dead code since v2.' },
    );
    await expect(page.getByTestId('approval-card')).toHaveCount(1);
    // Alt+4 gave the screen's list the focus as soon as it was drawn; A approves the oldest card.
    await expect(page.getByTestId('approvals-pending')).toBeFocused();
    await page.keyboard.press('a');
    const removed = await removing;
    expect(removed.decision).toBe('asked-allowed');
    expect(removed.isError, removed.text).toBe(false);
    const appended = await callMcpTool(
      client,
      'terminal',
      { command: 'echo two >> notes.txt' },
      { id: 't2', userMessage: 'Add a line to the notes' },
    );
    const wrote = await callMcpTool(
      client,
      'write_file',
      { path: 'src/app.ts', content: 'export const v = 2;\n' },
      { id: 't3' },
    );
    const remembered = await callMcpTool(
      client,
      'memory',
      { action: 'add', target: 'memory', content: 'Build with npm run build.' },
      { id: 't4', userMessage: 'Remember how to build' },
    );
    expect([appended.isError, wrote.isError, remembered.isError]).toEqual([false, false, false]);

    // The timeline opens on the folder people work in (the memory write, later, is in Vigil's own folder).
    await page.keyboard.press('Alt+2');
    await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', ws);
    await expect(page.getByTestId('timeline-list')).toBeFocused();
    await expect(page.getByTestId('timeline-list').getByTestId('timeline-entry')).toHaveCount(3);

    // Rows read as the turns: the first line of the user's message, else the calls; the reason kind is a chip.
    await expect(row(page, removed.checkpointId).getByTestId('row-title')).toHaveText('Remove the legacy folder …');
    await expect(row(page, appended.checkpointId).getByTestId('row-title')).toHaveText('Add a line to the notes');
    await expect(row(page, wrote.checkpointId).getByTestId('row-title')).toHaveText('write_file src/app.ts');
    await expect(row(page, removed.checkpointId).getByTestId('row-reason')).toHaveText('command');
    await expect(row(page, wrote.checkpointId).getByTestId('row-reason')).toHaveText('file edit');
    await expect(row(page, removed.checkpointId).getByTestId('row-actor')).toHaveText('alpha · turn 1 · terminal');
    // Each row counts its turn's own changes (a command's changed lines are not counted: "at least"); every
    // actor's changes after the checkpoint, up to the next one or the live folder, are a separate figure.
    await expect(row(page, removed.checkpointId).getByTestId('row-stats')).toHaveAttribute('data-scope', 'turn');
    await expect(row(page, removed.checkpointId).getByTestId('row-stats')).toHaveText(
      '+0 −0 · 2 files this turn (at least) · all sessions +0 −2 · 2 files',
    );
    await expect(row(page, appended.checkpointId).getByTestId('row-stats')).toHaveText(
      '+0 −0 · 1 file this turn (at least) · all sessions +1 −0 · 1 file',
    );
    await expect(row(page, wrote.checkpointId).getByTestId('row-stats')).toHaveAttribute('data-scope', 'turn');
    await expect(row(page, wrote.checkpointId).getByTestId('row-stats')).toHaveText('+1 −1 · 1 file this turn');
    // Absolute times under a day's heading; the relative time on hover.
    await expect(page.getByTestId('timeline-day').first()).toContainText('Today');
    await expect(row(page, wrote.checkpointId).getByTestId('row-time')).toHaveText(/^\d\d:\d\d:\d\d$/);
    await expect(row(page, wrote.checkpointId).getByTestId('row-time')).toHaveAttribute('title', /(just now|s ago) · /);
    await saveScreens(page, testInfo, 'attribution-timeline');

    // The agent's rm -rf and its >> are Vigil's own changes: the plan flags nothing, and names who made each version.
    await row(page, removed.checkpointId).click();
    await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('checkpoint-actor')).toHaveText('by alpha, turn 1');
    await page.getByTestId('restore-all').click();
    const plan = page.getByTestId('restore-plan');
    await expect(plan.getByTestId('plan-headline')).toHaveText('2 to restore · 2 to re-create');
    await expect(plan.getByTestId('plan-outside')).toHaveCount(0);
    await expect(plan.getByTestId('plan-outside-warning')).toHaveCount(0);
    await expect(plan.getByTestId('plan-recreate')).toContainText('by alpha, turn 1');
    await expect(plan.getByTestId('plan-restore')).toContainText('by alpha, turn 2');
    await saveScreens(page, testInfo, 'attribution-plan-agent');
    await page.keyboard.press('Escape');
    await expect(plan).toHaveCount(0);

    // A line appended from outside Vigil is flagged, and only it.
    await appendFile(path.join(ws, 'notes.txt'), 'three, typed in an editor\n');
    await page.getByTestId('restore-all').click();
    await expect(plan.getByTestId('plan-outside')).toHaveCount(1);
    await expect(plan.locator('li[data-outside="true"]')).toContainText('notes.txt');
    await expect(plan.getByTestId('plan-outside-warning')).toContainText('1 file was edited outside Vigil');
    await saveScreens(page, testInfo, 'attribution-plan-outside');
    await plan.getByTestId('plan-confirm').click();
    await expect(plan).toHaveCount(0);
    await expect(page.getByTestId('restore-outcome')).toHaveAttribute('data-state', 'complete');
    // The banner says it; no toast repeats it.
    await expect(page.getByTestId('toast').filter({ hasText: /Restor/ })).toHaveCount(0);

    // The restore point is yours; "Checkpoint now" too; one by the CLI is the CLI's.
    const point = page.getByTestId('timeline-list').locator('[data-testid="timeline-entry"][data-kind="pre-rollback"]');
    await expect(point).toHaveAttribute('data-actor', '@app');
    // Named as the detail and the CLI name it.
    await expect(point.getByTestId('row-actor')).toHaveText('you, in the app');
    await page.getByTestId('checkpoint-now').click();
    const newest = page.getByTestId('timeline-list').getByTestId('timeline-entry').first();
    await expect(newest).toHaveAttribute('data-actor', '@app');
    await expect(newest.getByTestId('row-reason')).toHaveText('by hand');
    await writeFile(path.join(ws, 'by-the-cli.txt'), 'cli\n');
    await runCli(vigil.home, ['checkpoint', ws]);
    await expect(newest).toHaveAttribute('data-actor', '@cli');
    await expect(newest.getByTestId('row-actor')).toHaveText('the CLI');
    await expect(page.getByTestId('actor-filter')).toHaveCount(3);

    // Memory: the agent's write is its session's, before and after; an adoption in the app is yours.
    await writeFile(path.join(vigil.home, 'memories', 'USER.md'), '# About the user\n\n§\n\nPrefers small commits.\n');
    await page.keyboard.press('Alt+3');
    const user = page.getByTestId('memory-file-user');
    await expect(user).toHaveAttribute('data-state', 'drifted');
    await user.getByTestId('adopt-open').click();
    const dialog = page.getByTestId('adoption');
    await expect(dialog).toHaveAttribute('data-state', 'choosing');
    await dialog.getByTestId('adopt-confirm').click();
    await expect(dialog).toHaveCount(0);
    await page.keyboard.press('Alt+2');
    await page.getByTestId('timeline-dir').click();
    const memories = path.join(vigil.home, 'memories');
    await expect(page.locator(`[data-testid="timeline-dir-option"][data-dir="${memories}"]`)).toHaveAttribute(
      'data-own',
      'true',
    );
    await expect(page.getByTestId('timeline-dir-option').last()).toHaveAttribute('data-dir', memories);
    await page.getByTestId('timeline-dir-search').fill('memories');
    await expect(page.getByTestId('timeline-dir-option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', memories);
    const afterAdd = rowsWithReason(page, 'after memory: add');
    await expect(afterAdd).toHaveCount(1);
    await expect(afterAdd.getByTestId('row-actor')).toHaveText('alpha · turn 4 · memory');
    // Turn 4 took two checkpoints here (before and after the write): they group under the turn, titled by its message.
    await expect(
      page.getByTestId('timeline-turn').filter({ hasText: 'alpha · turn 4' }).getByTestId('turn-title'),
    ).toHaveText('Remember how to build');
    await expect(afterAdd.getByTestId('row-title')).toHaveText('after memory: add');
    const afterAdopt = rowsWithReason(page, 'after memory: adopt');
    await expect(afterAdopt).toHaveAttribute('data-actor', '@app');
    await expect(afterAdopt.getByTestId('row-actor')).toHaveText('you, in the app');
    await saveScreens(page, testInfo, 'attribution-memory-timeline');
  } finally {
    await client.close();
  }
});
