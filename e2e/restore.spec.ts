import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { connectAgent } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

const names = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];

/** Five files at "v1", then an agent's turn rewrites them all to "v2": the checkpoint before it holds v1. */
async function agentRewritesFiveFiles(home: string, workspace: string): Promise<string> {
  for (const name of names) await writeFile(path.join(workspace, name), `${name} v1\n`);
  const client = await connectAgent(home);
  try {
    const session = await client.openSession({ agent: 'rewriter', roots: [workspace] });
    await session.beginTurn('Rewrite every file');
    const outcomes = await session.callTools(
      names.map((name) => ({
        name: 'write_file',
        arguments: { path: path.join(workspace, name), content: `${name} v2\n` },
      })),
    );
    await session.endTurn();
    const id = outcomes[0]?.checkpoints[0]?.checkpointId;
    if (id === undefined) throw new Error('the first write took no checkpoint');
    return id;
  } finally {
    await client.close();
  }
}

async function contents(workspace: string, which: readonly string[] = names): Promise<string[]> {
  return Promise.all(which.map(async (name) => (await readFile(path.join(workspace, name), 'utf8')).trim()));
}

async function openCheckpoint(page: Page, id: string): Promise<void> {
  await page.getByTestId('nav-timeline').click();
  await page.locator(`[data-testid="timeline-entry"][data-checkpoint-id="${id}"]`).click();
  await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('changed-file')).toHaveCount(5);
}

test('drag-select three of five changed files and restore only those three', async ({ page, vigil }, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const checkpoint = await agentRewritesFiveFiles(vigil.home, vigil.workspace);
  await openCheckpoint(page, checkpoint);

  // Press on b.txt, drag across c.txt onto d.txt, release.
  const box = async (name: string) => {
    const found = await page.locator(`[data-testid="changed-file"][data-path="${name}"]`).boundingBox();
    if (found === null) throw new Error(`${name} is not on screen`);
    return found;
  };
  const from = await box('b.txt');
  const to = await box('d.txt');
  await page.mouse.move(from.x + 40, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + 40, to.y + to.height / 2, { steps: 6 });
  await page.mouse.up();
  const files = page.getByTestId('changed-files');
  await expect(files).toHaveAttribute('data-selected-count', '3');
  await expect(files).toHaveAttribute('data-state', 'idle');
  await expect(page.locator('[data-testid="changed-file"][data-selected="true"]')).toHaveText([
    /b\.txt/,
    /c\.txt/,
    /d\.txt/,
  ]);
  await expect(page.getByTestId('stacked-diff')).toBeVisible();
  await saveScreens(page, testInfo, 'checkpoint-detail');

  await page.getByTestId('restore-selected').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await expect(plan.getByTestId('plan-headline')).toHaveText('3 to restore');
  await expect(plan.getByTestId('plan-restore').locator('li')).toHaveText([/b\.txt/, /c\.txt/, /d\.txt/]);
  await saveScreens(page, testInfo, 'restore-plan');
  expect(await contents(vigil.workspace)).toEqual(names.map((name) => `${name} v2`));

  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  await expect(page.getByTestId('restore-outcome')).toContainText('3 files changed');
  expect(await contents(vigil.workspace)).toEqual(['a.txt v2', 'b.txt v1', 'c.txt v1', 'd.txt v1', 'e.txt v2']);
  // The live directory now differs from the checkpoint only in the two files left alone.
  await expect(page.getByTestId('changed-file')).toHaveCount(2);
});

test('one-click restore, then undo it', async ({ page, vigil }, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const checkpoint = await agentRewritesFiveFiles(vigil.home, vigil.workspace);
  await openCheckpoint(page, checkpoint);

  await page.getByTestId('restore-all').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan.getByTestId('plan-headline')).toHaveText('5 to restore');
  // Enter accepts: the confirm button has the focus.
  await expect(plan.getByTestId('plan-confirm')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(plan).toHaveCount(0);
  expect(await contents(vigil.workspace)).toEqual(names.map((name) => `${name} v1`));

  // The restore is a node of the timeline: its restore point, marked "undo restore".
  const restorePoint = page.locator('[data-testid="timeline-entry"][data-kind="pre-rollback"]');
  await expect(restorePoint).toHaveCount(1);
  await expect(restorePoint).toContainText('undo restore');
  // The outcome shows once, in the detail's banner (it is open on this folder): no toast repeats it.
  const outcome = page.getByTestId('restore-outcome');
  await expect(outcome).toContainText(`Restored to ${checkpoint.slice(0, 8)}`);
  await expect(outcome).toContainText('5 files changed');
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await saveScreens(page, testInfo, 'restore-done');

  await outcome.getByTestId('undo-restore').click();
  const undo = page.getByTestId('restore-plan');
  await expect(undo).toHaveAttribute('data-state', 'ready');
  await expect(undo).toContainText('Undo the restore');
  await expect(undo.getByTestId('plan-headline')).toHaveText('5 to restore');
  // The button says what the plan says.
  await expect(undo.getByTestId('plan-confirm')).toHaveText('Undo: restore 5 files');
  await undo.getByTestId('plan-confirm').click();
  await expect(undo).toHaveCount(0);
  expect(await contents(vigil.workspace)).toEqual(names.map((name) => `${name} v2`));
  // The banner now tells of the undo, and offers the way forward again, not a second undo.
  await expect(outcome).toContainText('Restore undone');
  await expect(outcome.getByTestId('undo-restore')).toHaveText('Redo restore…');
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await expect(page.locator('[data-testid="timeline-entry"][data-kind="pre-rollback"]')).toHaveCount(2);
});

test('a restore that cannot bring back a file says it is incomplete, naming the file and the reason', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const checkpoint = await agentRewritesFiveFiles(vigil.home, vigil.workspace);
  // a.txt becomes a folder holding files no snapshot keeps: the restore must not delete them.
  await rm(path.join(vigil.workspace, 'a.txt'));
  await mkdir(path.join(vigil.workspace, 'a.txt', 'node_modules', 'dep'), { recursive: true });
  await writeFile(path.join(vigil.workspace, 'a.txt', 'node_modules', 'dep', 'index.js'), 'dep\n');
  await openCheckpoint(page, checkpoint);

  await page.getByTestId('restore-all').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan.getByTestId('plan-headline')).toHaveText('4 to restore · 1 skipped');
  await expect(plan).toContainText('1 file differs from the checkpoint but cannot be restored');
  await expect(plan.getByTestId('plan-skip')).toContainText('a.txt');
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);

  const outcome = page.getByTestId('restore-outcome');
  await expect(outcome).toHaveAttribute('data-state', 'incomplete');
  await expect(outcome).toContainText('Restore incomplete.');
  await expect(outcome.getByTestId('restore-problems')).toContainText(
    'a.txt — A folder is here now holding 1 file(s) the restore will not delete',
  );
  // The banner says it all, once: no toast repeats it.
  await expect(outcome).toContainText('1 file could not be restored, 4 files changed');
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await saveScreens(page, testInfo, 'restore-incomplete');
  expect(await contents(vigil.workspace, names.slice(1))).toEqual(names.slice(1).map((name) => `${name} v1`));
  expect(await readFile(path.join(vigil.workspace, 'a.txt', 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('dep\n');
});
