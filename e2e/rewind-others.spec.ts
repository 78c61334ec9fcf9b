import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { connectMcpAgent } from './fixtures/agents';
import { callMcpTool } from './fixtures/mcp-calls';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

/** The timeline row of a checkpoint. */
function row(page: Page, id: string | undefined) {
  return page
    .getByTestId('timeline-list')
    .locator(`[data-testid="timeline-entry"][data-checkpoint-id="${id ?? 'none'}"]`);
}

test("a command's rewind keeps the files another session changed later, unless the person ticks them", async ({
  page,
  vigil,
}, testInfo) => {
  const ws = vigil.workspace;
  const [a, b, c] = ['a.txt', 'b.txt', 'c.txt'].map((name) => path.join(ws, name));
  await page.setViewportSize({ width: 1440, height: 900 });
  await writeFile(a ?? '', 'a1\n');
  await writeFile(b ?? '', 'b1\n');
  await writeFile(path.join(ws, 'd.txt'), 'd1\n');
  // codex overwrites hermes's files on purpose: the collision guard lets it, and says so (its own spec covers asking).
  await writeFile(path.join(vigil.home, 'config.json'), JSON.stringify({ sessions: { collisions: 'warn' } }));
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const hermes = await connectMcpAgent(vigil.home, 'hermes', ws);
  const codex = await connectMcpAgent(vigil.home, 'codex', ws);
  try {
    // hermes runs a command; its rewind covers the files the command may change.
    const command = await callMcpTool(
      hermes,
      'terminal',
      { command: 'echo h >> a.txt && echo h >> b.txt && echo h >> d.txt' },
      { id: 'h1', userMessage: 'Tag the files' },
    );
    expect(command.isError, command.text).toBe(false);
    // Then codex changes b.txt, creates c.txt and rewrites d.txt: later work of another session.
    for (const [file, content] of [
      ['b.txt', 'codex\n'],
      ['c.txt', 'new by codex\n'],
      ['d.txt', 'd by codex\n'],
    ] as const) {
      const wrote = await callMcpTool(codex, 'write_file', { path: file, content }, { id: 'c1', userMessage: 'Edit' });
      expect(wrote.isError, wrote.text).toBe(false);
    }

    await page.keyboard.press('Alt+2');
    await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', ws);
    const hermesRow = row(page, command.checkpointId);
    await hermesRow.hover();
    await hermesRow.getByTestId('row-rewind').click();
    const plan = page.getByTestId('rewind-plan');
    await page.getByTestId('rewind-mode-code').click();
    await expect(page.getByTestId('rewind-mode-code')).toHaveAttribute('aria-checked', 'true');

    // Every file of the rewind that codex changed after hermes's turn is listed, with who and when, and kept by
    // default (c.txt, which hermes's command never touched, is not part of the rewind at all).
    const others = plan.getByTestId('rewind-others');
    await expect(others).toHaveAttribute('data-count', '2');
    const other = (name: string) => others.locator(`[data-testid="rewind-other-file"][data-path="${name}"]`);
    for (const name of ['b.txt', 'd.txt']) {
      await expect(other(name)).toHaveAttribute('data-choice', 'keep');
      await expect(other(name)).toContainText(/changed by codex, turn 1 at \d\d:\d\d:\d\d: keep theirs/u);
    }
    // Only hermes's own a.txt goes back.
    await expect(plan.getByTestId('plan-restore')).toContainText('a.txt');
    await expect(plan.getByTestId('plan-restore')).not.toContainText('b.txt');
    await expect(plan.getByTestId('plan-delete')).toHaveCount(0);
    // The person takes d.txt back too.
    await other('d.txt').getByTestId('rewind-other-choice').check();
    await expect(other('d.txt')).toHaveAttribute('data-choice', 'overwrite');
    await expect(plan.getByTestId('plan-restore')).toContainText('d.txt');
    await saveScreens(page, testInfo, 'rewind-others-plan');

    await plan.getByTestId('plan-confirm').click();
    await expect(plan).toHaveCount(0);
    await expect(page.getByTestId('toast').filter({ hasText: 'Rewound to the start of turn 1' })).toBeVisible();
    expect(await readFile(a ?? '', 'utf8')).toBe('a1\n');
    expect(await readFile(path.join(ws, 'd.txt'), 'utf8')).toBe('d1\n');
    // codex's later work stays.
    expect(await readFile(b ?? '', 'utf8')).toBe('codex\n');
    expect(await readFile(c ?? '', 'utf8')).toBe('new by codex\n');
    await expect(access(c ?? '')).resolves.toBeUndefined();
  } finally {
    await Promise.all([hermes.close(), codex.close()]);
  }
});
