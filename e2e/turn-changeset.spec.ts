import { mkdir, writeFile } from 'node:fs/promises';
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

test("each turn's own changeset: a turn whose folder had not changed has its own row and title, and its stats agree with the CLI", async ({
  page,
  vigil,
}, testInfo) => {
  const ws = vigil.workspace;
  await page.setViewportSize({ width: 1440, height: 900 });
  await mkdir(path.join(ws, 'src'));
  await writeFile(path.join(ws, 'src', 'app.ts'), 'export const v = 1;\n');
  await writeFile(path.join(ws, 'notes.txt'), 'one\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const alpha = await connectMcpAgent(vigil.home, 'alpha', ws);
  const beta = await connectMcpAgent(vigil.home, 'beta', ws);
  try {
    // Turn 1 changes only what is never stored (node_modules): the folder is as its checkpoint holds it.
    const install = await callMcpTool(
      alpha,
      'terminal',
      { command: 'mkdir -p node_modules/pg && echo "module.exports = {};" > node_modules/pg/index.js' },
      { id: 'a1', userMessage: 'Install the postgres driver' },
    );
    expect(install.isError, install.text).toBe(false);
    // Turn 2 starts with nothing changed since: it still gets its own checkpoint, so its patch is not the install's.
    const health = await callMcpTool(
      alpha,
      'write_file',
      { path: 'src/health.ts', content: 'export const ok = true;\n' },
      { id: 'a2', userMessage: 'Fix the health check' },
    );
    expect(health.isError, health.text).toBe(false);
    expect(health.checkpointId).toBeDefined();
    expect(health.checkpointId).not.toBe(install.checkpointId);
    // Another session writes in the same folder, then alpha's turn 2 writes once more (no new checkpoint).
    const notes = await callMcpTool(
      beta,
      'write_file',
      { path: 'notes.txt', content: 'one\ntwo\nthree\n' },
      { id: 'b1', userMessage: 'Extend the notes' },
    );
    expect(notes.isError, notes.text).toBe(false);
    const db = await callMcpTool(
      alpha,
      'write_file',
      { path: 'src/db.ts', content: 'export const url = "postgres://localhost";\nexport const pool = 4;\n' },
      { id: 'a2' },
    );
    expect(db.isError, db.text).toBe(false);

    await page.keyboard.press('Alt+2');
    await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', ws);
    await expect(page.getByTestId('timeline-list').getByTestId('timeline-entry')).toHaveCount(3);
    const installRow = row(page, install.checkpointId);
    const healthRow = row(page, health.checkpointId);
    const notesRow = row(page, notes.checkpointId);
    await expect(installRow.getByTestId('row-title')).toHaveText('Install the postgres driver');
    await expect(healthRow.getByTestId('row-title')).toHaveText('Fix the health check');
    await expect(healthRow.getByTestId('row-actor')).toHaveText('alpha · turn 2 · write_file');
    // Each row counts its own turn's changes: the install its one file (in node_modules, which no checkpoint
    // stores, so every stored file is as before: all sessions +0); turn 2 its two files, though beta's notes
    // came between them; every session's changes are a separate figure.
    await expect(installRow.getByTestId('row-stats')).toHaveText(
      '+1 −0 · 1 file this turn · all sessions +0 −0 · 0 files',
    );
    const stats = healthRow.getByTestId('row-stats');
    await expect(stats).toHaveAttribute('data-scope', 'turn');
    await expect(stats).toContainText('+3 −0 · 2 files this turn');
    await expect(notesRow.getByTestId('row-stats')).toContainText('+2 −0 · 1 file this turn');
    await expect(notesRow.getByTestId('row-all-stats')).toHaveText(' · all sessions +4 −0 · 2 files');
    const sessionId = (await healthRow.getAttribute('data-session-id')) ?? '';
    expect(sessionId).not.toBe('');
    await saveScreens(page, testInfo, 'turn-changeset-timeline');

    // The CLI says the same: the turn, and the list (titled as the row).
    const [turn, list] = await Promise.all([
      runCli(vigil.home, ['sessions', 'show', sessionId, '--turn', '2']),
      runCli(vigil.home, ['checkpoints', 'list', ws]),
    ]);
    const files = await stats.getAttribute('data-files');
    const insertions = await stats.getAttribute('data-insertions');
    const deletions = await stats.getAttribute('data-deletions');
    expect([files, insertions, deletions]).toEqual(['2', '3', '0']);
    expect(turn.stdout).toContain(`Turn 2 of session ${sessionId}: ${files} files, +${insertions} −${deletions}`);
    const line = list.stdout
      .split('\n')
      .find((candidate) => candidate.includes(health.checkpointId?.slice(0, 8) ?? '-'));
    expect(line).toContain('Fix the health check');
    expect(line).toContain(`(this turn: ${files} files, +${insertions} −${deletions})`);

    // The detail is titled as its row; the transcript counts the same turn alike.
    await healthRow.click();
    await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('checkpoint-title')).toHaveText('Fix the health check');
    await expect(page.getByTestId('checkpoint-reason')).toHaveText('before write_file');
  } finally {
    await Promise.all([alpha.close(), beta.close()]);
  }
});
