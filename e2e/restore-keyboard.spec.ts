import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { runCli } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

/** The newest checkpoint of `dir`, as the CLI lists it. */
async function newestCheckpoint(home: string, dir: string): Promise<string> {
  const listed = JSON.parse((await runCli(home, ['checkpoints', 'list', dir, '--json'])).stdout) as {
    entries: Array<{ id: string }>;
  };
  const id = listed.entries[0]?.id;
  if (id === undefined) throw new Error(`no checkpoint of ${dir}`);
  return id;
}

async function openCheckpoint(page: Page, id: string): Promise<Locator> {
  await page.getByTestId('nav-timeline').click();
  await page.locator(`[data-testid="timeline-entry"][data-checkpoint-id="${id}"]`).click();
  const detail = page.getByTestId('checkpoint-detail');
  await expect(detail).toHaveAttribute('data-state', 'ready');
  return detail;
}

const original = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
const rewritten = Array.from({ length: 25 }, (_, index) => `rewritten ${index + 1}`);
/** Lines 10–20 of the original rewritten into 25 new lines. */
const rewrittenFile = `${[...original.slice(0, 9), ...rewritten, ...original.slice(20)].join('\n')}\n`;

/** The file the CLI's `--lines A-B` makes from `start` on disk (the file is put back to `start` first), read back. */
async function cliResult(home: string, dir: string, id: string, file: string, start: string, lines: string) {
  await writeFile(path.join(dir, file), start);
  const cli = await runCli(home, ['checkpoints', 'restore', dir, id, file, '--lines', lines]);
  expect(cli.stdout).toContain('Restored lines');
  return readFile(path.join(dir, file), 'utf8');
}

/** Picks from the keyboard in the diff region: to the first change (Alt+↓), then Shift+↓ `extend` times. */
async function pickFromKeyboard(page: Page, extend: number): Promise<void> {
  const region = page.getByRole('region', { name: 'Changes, file by file' });
  await region.focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByTestId('diff-cursor')).toContainText('old line 10 of block.txt, removed: line 10');
  for (let step = 0; step < extend; step += 1) await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByTestId('diff-cursor')).toContainText(`old line ${10 + extend} of block.txt`);
}

test('lines picked from the keyboard and restored with Enter give the file `--lines` gives, after the plan', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const file = path.join(vigil.workspace, 'block.txt');
  await writeFile(file, `${original.join('\n')}\n`);
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  await writeFile(file, rewrittenFile);

  await openCheckpoint(page, id);
  await page.locator('[data-testid="changed-file"][data-path="block.txt"] .file-path').click();
  const stacked = page.getByTestId('stacked-diff');
  await expect(stacked.locator('[data-testid="diff-line"][data-path="block.txt"].diff-removed')).toHaveCount(11);
  // Old lines 10–12: each with the new line that stands for it.
  await pickFromKeyboard(page, 2);
  await expect(stacked).toHaveAttribute('data-picked', '6');
  await expect(page.getByTestId('diff-cursor')).toContainText('6 changed lines picked');
  await saveScreens(page, testInfo, 'keyboard-line-pick');

  await page.keyboard.press('Enter');
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await expect(plan.getByTestId('line-plan-preview')).toContainText('line 11');
  // The preview comes first: nothing is written before the confirmation.
  expect(await readFile(file, 'utf8')).toBe(rewrittenFile);
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  const restored = await readFile(file, 'utf8');
  expect(restored).toBe(`${[...original.slice(0, 12), ...rewritten.slice(3), ...original.slice(20)].join('\n')}\n`);
  expect(await cliResult(vigil.home, vigil.workspace, id, 'block.txt', rewrittenFile, '10-12')).toBe(restored);
});

test('lines picked in a comparison of two checkpoints restore the open checkpoint’s version into the live file, as `--lines` does', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const file = path.join(vigil.workspace, 'block.txt');
  await writeFile(file, `${original.join('\n')}\n`);
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const older = await newestCheckpoint(vigil.home, vigil.workspace);
  await writeFile(file, rewrittenFile);
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  // Live: the rewritten file, with a line added at its end since the second checkpoint.
  const live = `${rewrittenFile}a later line\n`;
  await writeFile(file, live);

  // The older checkpoint against the next one: the live file is neither side.
  await openCheckpoint(page, older);
  await page.getByRole('group', { name: 'Compare with' }).getByRole('button', { name: 'Next checkpoint' }).click();
  await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
  await page.locator('[data-testid="changed-file"][data-path="block.txt"] .file-path').click();
  const stacked = page.getByTestId('stacked-diff');
  await expect(stacked.locator('[data-testid="diff-line"][data-path="block.txt"].diff-removed')).toHaveCount(11);
  await expect(page.getByTestId('diff-summary')).toContainText(`(${older.slice(0, 8)} → `);
  await pickFromKeyboard(page, 2);
  await expect(stacked).toHaveAttribute('data-picked', '6');
  const restoreLines = page.getByTestId('restore-lines');
  await expect(restoreLines).toHaveText(`Restore from ${older.slice(0, 8)}…`);
  await saveScreens(page, testInfo, 'checkpoint-line-pick');
  await restoreLines.click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await expect(plan.getByTestId('line-plan-preview')).toContainText('line 10');
  expect(await readFile(file, 'utf8')).toBe(live);
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  const restored = await readFile(file, 'utf8');
  // Old lines 10–12 replace the new lines that stood for them; the later line stays.
  expect(restored).toBe(
    `${[...original.slice(0, 12), ...rewritten.slice(3), ...original.slice(20), 'a later line'].join('\n')}\n`,
  );
  expect(await cliResult(vigil.home, vigil.workspace, older, 'block.txt', live, '10-12')).toBe(restored);
});

test('the changed files filter by path and say how many of how many they show', async ({ page, vigil }) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const names = ['src/app.ts', 'src/App.test.ts', 'src/util.ts', 'docs/app.md', 'README.md'];
  for (const name of names) {
    await mkdir(path.dirname(path.join(vigil.workspace, name)), { recursive: true });
    await writeFile(path.join(vigil.workspace, name), 'v1\n');
  }
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  for (const name of names) await writeFile(path.join(vigil.workspace, name), 'v2\n');
  await openCheckpoint(page, id);
  const rows = page.getByTestId('changed-file');
  await expect(rows).toHaveCount(5);
  const filter = page.getByRole('searchbox', { name: 'Filter the changed files by path' });
  await expect(page.getByTestId('changed-files-count')).toHaveText('5 files');
  // A file selected for restore and then filtered away is still said.
  await page.locator('[data-testid="changed-file"][data-path="src/util.ts"]').getByTestId('file-check').click();
  // A search box in the tab order: typed into from the keyboard, letter case aside.
  await filter.focus();
  await page.keyboard.type('APP');
  await expect(page.getByTestId('changed-files-count')).toHaveText('3 of 5 files · 1 selected not shown');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('[data-testid="changed-file"][data-path="src/util.ts"]')).toHaveCount(0);
  await page.getByTestId('diff-mode-all').click();
  await expect(page.getByTestId('stacked-diff')).toHaveAttribute('data-files', '3');
  await filter.fill('nothing like it');
  await expect(page.getByTestId('changed-files-count')).toHaveText('0 of 5 files · 1 selected not shown');
  await expect(rows).toHaveCount(0);
  await filter.press('Escape');
  await expect(filter).toHaveValue('');
  await expect(rows).toHaveCount(5);
});

test('the checkpoint detail is resized from the keyboard or the pointer, and keeps its width across a reload', async ({
  page,
  vigil,
}) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await writeFile(path.join(vigil.workspace, 'a.txt'), 'one\n');
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  await writeFile(path.join(vigil.workspace, 'a.txt'), 'two\n');
  const detail = await openCheckpoint(page, id);
  const separator = page.getByRole('separator', { name: 'Width of the checkpoint detail' });
  await expect(separator).toHaveAttribute('aria-valuenow', '52');
  const before = (await detail.boundingBox())?.width ?? 0;
  await separator.focus();
  for (let press = 0; press < 4; press += 1) await page.keyboard.press('ArrowLeft');
  await expect(separator).toHaveAttribute('aria-valuenow', '60');
  await expect.poll(async () => (await detail.boundingBox())?.width ?? 0).toBeGreaterThan(before + 50);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(separator).toHaveAttribute('aria-valuenow', '50');
  await page.keyboard.press('Home');
  await expect(separator).toHaveAttribute('aria-valuenow', '75');

  // The pointer: drag the handle to a third of the way across the timeline's body.
  const body = await page.locator('.timeline-body').boundingBox();
  const handle = await separator.boundingBox();
  if (body === null || handle === null) throw new Error('not on screen');
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(body.x + body.width * 0.4, handle.y + handle.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(separator).toHaveAttribute('aria-valuenow', '60');
  const wide = (await detail.boundingBox())?.width ?? 0;

  await page.reload();
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByRole('separator', { name: 'Width of the checkpoint detail' })).toHaveAttribute(
    'aria-valuenow',
    '60',
  );
  await expect
    .poll(async () => Math.round((await page.getByTestId('checkpoint-detail').boundingBox())?.width ?? 0))
    .toBe(Math.round(wide));
});
