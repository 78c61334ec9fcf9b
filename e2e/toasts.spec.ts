import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectMcpAgent, runCli } from './fixtures/agents';
import { callMcpTool, type McpCallRecord } from './fixtures/mcp-calls';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

/** Enough files that the restore takes a moment: the user leaves the timeline before it ends. */
const fileCount = 300;

test('toasts leave on their own; a restore toast with "Undo restore" goes at once when another folder is opened; the timeline opens on the most recently active folder', async ({
  page,
  vigil,
}, testInfo) => {
  const project = path.join(vigil.workspace, 'project');
  const other = path.join(vigil.workspace, 'other');
  await mkdir(path.join(project, 'src'), { recursive: true });
  await mkdir(other);
  for (let index = 0; index < fileCount; index += 1)
    await writeFile(path.join(project, 'src', `f${index}.txt`), 'v1\n');
  await writeFile(path.join(other, 'readme.md'), 'other\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  // The CLI checkpoints `other` first; then an agent works in `project`: the more recent activity.
  await runCli(vigil.home, ['checkpoint', other]);
  const client = await connectMcpAgent(vigil.home, 'alpha', project);
  let changed: McpCallRecord | undefined;
  try {
    changed = await callMcpTool(
      client,
      'write_file',
      { path: 'src/f0.txt', content: 'v2\n' },
      { id: 't1', userMessage: 'Bump every file' },
    );
    expect(changed.isError, changed.text).toBe(false);
    expect(changed.checkpointId).toBeDefined();
  } finally {
    await client.close();
  }
  // The rest changes in an editor: the restore brings them all back.
  for (let index = 1; index < fileCount; index += 1)
    await writeFile(path.join(project, 'src', `f${index}.txt`), 'v2\n');

  await page.keyboard.press('Alt+2');
  await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', project);
  const row = page.locator(`[data-testid="timeline-entry"][data-checkpoint-id="${changed.checkpointId ?? 'none'}"]`);
  await expect(row.getByTestId('row-title')).toHaveText('Bump every file');

  // A toast with no follow-up leaves by itself after about 8 s (the pointer is kept off it: hovering holds it).
  await page.mouse.move(5, 5);
  await page.getByTestId('checkpoint-now').click();
  const taken = page.getByTestId('toast').filter({ hasText: /Checkpoint taken|Nothing changed/ });
  await expect(taken).toBeVisible();
  const shownAt = Date.now();
  await expect(taken).toHaveCount(0, { timeout: 20_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(6_000);

  // Restore all, then leave for Sessions before it ends: the outcome comes as a toast with "Undo restore".
  await row.click();
  await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('restore-all').click();
  await expect(page.getByTestId('restore-plan').getByTestId('plan-confirm')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Alt+1');
  const restored = page.getByTestId('toast').filter({ hasText: 'Restored to' });
  await expect(restored).toContainText(`${fileCount} files changed`);
  await expect(restored.getByTestId('toast-undo-restore')).toHaveText('Undo restore');
  expect(await readFile(path.join(project, 'src', 'f0.txt'), 'utf8')).toBe('v1\n');
  await saveScreens(page, testInfo, 'toast-undo-restore');

  // Another folder in view: an undo of this folder's restore no longer applies there, and the toast goes at once.
  await page.keyboard.press('Alt+2');
  await page.getByTestId('timeline-dir').click();
  await page.getByTestId('timeline-dir-search').fill('other');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', other);
  await expect(restored).toHaveCount(0, { timeout: 2_000 });
  // Back on the folder, it does not come back: the banner of its detail is where the outcome stays.
  await page.getByTestId('timeline-dir').click();
  await page.getByTestId('timeline-dir-search').fill('project');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', project);
  await expect(page.getByTestId('toast-undo-restore')).toHaveCount(0);
});
