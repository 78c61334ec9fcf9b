import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectAgent } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

test('an external MEMORY.md edit appears live, with its entry diff', async ({ page, vigil }, testInfo) => {
  const file = path.join(vigil.home, 'memories', 'MEMORY.md');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await page.keyboard.press('Alt+3');
  const card = page.getByTestId('memory-file-memory');
  await expect(card).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('memory-watched')).toHaveText('watching for edits');

  const startedAt = Date.now();
  await writeFile(file, 'The project uses pnpm.\n§\nTests run with vitest.');
  await expect(card).toHaveAttribute('data-entries', '2');
  testInfo.annotations.push({ type: 'edit-to-screen', description: `${Date.now() - startedAt} ms (measured in npm run bench, not asserted here)` });
  await expect(card.getByTestId('memory-entry')).toHaveText([/The project uses pnpm\./, /Tests run with vitest\./]);
  const change = page.getByTestId('memory-change').first();
  await expect(change).toHaveAttribute('data-source', 'external');
  await expect(change.getByTestId('entry-diff')).toContainText('Tests run with vitest.');

  // A second edit replaces one entry: the diff shows what went and what came.
  await writeFile(file, 'The project uses npm workspaces.\n§\nTests run with vitest.');
  await expect(card.getByTestId('memory-entry').first()).toHaveText(/npm workspaces/);
  const latest = page.getByTestId('memory-change').first();
  await expect(latest.locator('[data-kind="added"]')).toHaveText(/npm workspaces/);
  await expect(latest.locator('[data-kind="removed"]')).toHaveText(/pnpm/);
  await expect(card.getByTestId('memory-file-memory-external')).toContainText('Edited outside Vigil');
  await saveScreens(page, testInfo, 'memory');
});

test('a drifted memory file shows the banner and is adopted as entries the user confirms', async ({ page, vigil }, testInfo) => {
  const file = path.join(vigil.home, 'memories', 'USER.md');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await page.getByTestId('nav-memory').click();
  const card = page.getByTestId('memory-file-user');
  await expect(card).toHaveAttribute('data-state', 'ok');

  await writeFile(file, '# About the user\n\nPrefers small commits.\n\nWorks in UTC+1.\n');
  await expect(card).toHaveAttribute('data-state', 'drifted');
  await expect(card.getByTestId('drift-banner')).toContainText('Agents’ memory writes to it are refused');

  // An agent's write is refused (nothing lost); the banner learns the backup Vigil made.
  const client = await connectAgent(vigil.home);
  try {
    const session = await client.openSession({ agent: 'note-taker', roots: [vigil.workspace] });
    const refused = await session.callTool('memory', { action: 'add', target: 'user', content: 'Likes tabs.' });
    expect(refused.result.ok).toBe(false);
  } finally {
    await client.close();
  }
  await expect(card.getByTestId('drift-backup')).toContainText('USER.md.bak.');
  await saveScreens(page, testInfo, 'memory-drift');

  await card.getByTestId('adopt-open').click();
  const dialog = page.getByTestId('adoption');
  await expect(dialog).toHaveAttribute('data-state', 'choosing');
  await dialog.getByRole('button', { name: /By blank lines/ }).click();
  await expect(dialog.getByTestId('adoption-entries').locator('li')).toHaveCount(3);
  await dialog.getByTestId('adopt-confirm').click();
  await expect(dialog).toHaveCount(0);
  await expect(card).toHaveAttribute('data-state', 'ok');
  await expect(card).toHaveAttribute('data-entries', '3');
  await expect(page.getByTestId('toast').filter({ hasText: 'USER.md adopted' })).toContainText('.bak.');
  expect(await readFile(file, 'utf8')).toBe('# About the user\n§\nPrefers small commits.\n§\nWorks in UTC+1.');
});
