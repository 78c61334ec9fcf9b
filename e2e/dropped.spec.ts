import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

test('a lowered retention says what it will cut, and the dropped checkpoints stay restorable from the timeline', async ({
  page,
  vigil,
}, testInfo) => {
  const notes = path.join(vigil.workspace, 'notes.txt');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  for (let version = 1; version <= 6; version += 1) {
    await writeFile(notes, `version ${version}\n`);
    await runCli(vigil.home, ['checkpoint', vigil.workspace, '--reason', `version ${version}`]);
  }
  await page.getByTestId('nav-timeline').click();
  const list = page.getByTestId('timeline-list');
  await expect(list.getByTestId('timeline-entry')).toHaveCount(6);

  // Lowered to 2: the timeline says so before the next checkpoint applies it.
  await writeFile(path.join(vigil.home, 'config.json'), JSON.stringify({ checkpoints: { maxSnapshots: 2 } }));
  const notice = page.getByTestId('retention-pending-cut');
  await expect(notice).toHaveAttribute('data-count', '5');
  await expect(notice).toContainText('will drop 5 old checkpoints');
  await saveScreens(page, testInfo, 'retention-pending-cut');

  await writeFile(notes, 'version 7\n');
  await page.getByTestId('checkpoint-now').click();
  await expect(list.getByTestId('timeline-entry')).toHaveCount(2);
  await expect(notice).toHaveCount(0);
  const section = page.getByTestId('dropped-section');
  await expect(section).toHaveAttribute('data-count', '5');
  const entries = section.getByTestId('dropped-entry');
  await expect(entries.nth(0)).toContainText('d1');
  await expect(entries.nth(0)).toContainText('version 5');
  await expect(entries.nth(0)).toContainText('by retention');
  await saveScreens(page, testInfo, 'recently-dropped');

  // d4 is version 2: restored through the same plan as any checkpoint.
  await expect(entries.nth(3)).toContainText('version 2');
  await entries.nth(3).getByTestId('dropped-restore').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan.getByTestId('plan-restore')).toContainText('notes.txt');
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  await expect.poll(() => readFile(notes, 'utf8')).toBe('version 2\n');
});
