import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectAgent } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

test("browse a directory's timeline from two sessions and filter it", async ({ page, vigil }, testInfo) => {
  await writeFile(path.join(vigil.workspace, 'README.md'), '# shared project\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await page.getByTestId('nav-timeline').click();
  await expect(page.getByTestId('timeline-empty')).toBeVisible();
  await saveScreens(page, testInfo, 'timeline-empty');

  const client = await connectAgent(vigil.home);
  const taken: Record<string, string> = {};
  try {
    const alpha = await client.openSession({ agent: 'alpha', roots: [vigil.workspace] });
    const beta = await client.openSession({ agent: 'beta', roots: [vigil.workspace] });
    const write = async (session: typeof alpha, name: string, label: string): Promise<void> => {
      await session.beginTurn(`write ${name}`);
      const outcome = await session.callTool('write_file', {
        path: path.join(vigil.workspace, name),
        content: `${name}\n`,
      });
      const id = outcome.checkpoints[0]?.checkpointId;
      expect(outcome.checkpoints[0]?.kind, `a checkpoint before ${name}`).toBe('created');
      if (id !== undefined) taken[label] = id;
      await session.endTurn();
    };
    await write(alpha, 'a1.txt', 'alpha-1');
    await write(beta, 'b1.txt', 'beta-1');
    await write(alpha, 'a2.txt', 'alpha-2');
    await write(beta, 'b2.txt', 'beta-2');

    const list = page.getByTestId('timeline-list');
    await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', vigil.workspace);
    await expect(list.getByTestId('timeline-entry')).toHaveCount(4);
    // b2.txt was written after beta's last checkpoint: a checkpoint by hand holds it.
    await page.getByTestId('checkpoint-now').click();
    await expect(list.getByTestId('timeline-entry')).toHaveCount(5);
    // Newest first, attributed: the one by hand is yours (in the app), then beta, alpha, beta, alpha.
    await expect(list.getByTestId('timeline-entry').nth(0)).toHaveAttribute('data-session-id', '');
    await expect(list.getByTestId('timeline-entry').nth(0)).toHaveAttribute('data-actor', '@app');
    await expect(list.getByTestId('timeline-entry').nth(1)).toHaveAttribute(
      'data-checkpoint-id',
      taken['beta-2'] ?? '',
    );
    await expect(list.getByTestId('timeline-entry').nth(4)).toHaveAttribute(
      'data-checkpoint-id',
      taken['alpha-1'] ?? '',
    );
    await expect(page.getByTestId('actor-filter')).toHaveCount(3);
    await list.getByTestId('timeline-entry').nth(2).click();
    await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
    await saveScreens(page, testInfo, 'timeline');

    // Only beta's checkpoints.
    await page.locator(`[data-testid="actor-filter"][data-actor="${beta.id}"]`).click();
    await expect(list.getByTestId('timeline-entry')).toHaveCount(2);
    for (const entry of await list.getByTestId('timeline-entry').all())
      await expect(entry).toHaveAttribute('data-session-id', beta.id);
    await expect(page.getByTestId('timeline-count')).toHaveText('2 of 5 checkpoints');

    // Adding alpha shows both sessions, without yours; a reason with no match shows none.
    await page.locator(`[data-testid="actor-filter"][data-actor="${alpha.id}"]`).click();
    await expect(list.getByTestId('timeline-entry')).toHaveCount(4);
    await page.getByTestId('reason-filter').selectOption('terminal');
    await expect(list.getByTestId('timeline-entry')).toHaveCount(0);
    await expect(page.getByText('No checkpoint matches the filter.')).toBeVisible();
    await page.getByTestId('reason-filter').selectOption('all');

    // By file: b1.txt appeared between beta's first checkpoint and alpha's second, so only alpha-2 changed it.
    await page.getByTestId('file-filter').fill('b1.txt');
    await page.getByTestId('file-filter').press('Enter');
    await expect(list.getByTestId('timeline-entry')).toHaveCount(1);
    await expect(list.getByTestId('timeline-entry')).toHaveAttribute('data-checkpoint-id', taken['alpha-2'] ?? '');

    // From the keyboard: clear the filters, step with the arrows.
    await page.getByTestId('file-filter').fill('');
    for (const id of [alpha.id, beta.id])
      await page.locator(`[data-testid="actor-filter"][data-actor="${id}"]`).click();
    await expect(list.getByTestId('timeline-entry')).toHaveCount(5);
    await list.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await expect(list.getByTestId('timeline-entry').nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('checkpoint-header')).toHaveAttribute('data-checkpoint-id', taken['beta-2'] ?? '');
  } finally {
    await client.close();
  }
});
