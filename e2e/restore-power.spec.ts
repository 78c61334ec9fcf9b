import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { connectAgent, runCli } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

/** The id of the newest checkpoint of `dir`, as the CLI lists it. */
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

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  // A live comparison may draw the rows again meanwhile, and the virtualized list may still be
  // settling its scroll as it measures rows: wait until the row stays put between two looks.
  await locator.waitFor({ state: 'visible' });
  let box = await locator.boundingBox();
  for (let look = 0; look < 50; look += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await locator.boundingBox();
    if (box !== null && again !== null && again.x === box.x && again.y === box.y) break;
    box = again;
  }
  if (box === null) throw new Error('not on screen');
  return { x: box.x + Math.min(60, box.width / 2), y: box.y + box.height / 2 };
}

/** One agent session of three turns on notes.txt and other.txt; the line "TODO: drop me" goes away in the third. */
async function threeTurns(home: string, workspace: string): Promise<void> {
  await writeFile(path.join(workspace, 'notes.txt'), 'alpha\nTODO: drop me\nomega\n');
  await writeFile(path.join(workspace, 'other.txt'), 'x\n');
  const client = await connectAgent(home);
  try {
    const session = await client.openSession({ agent: 'historian', roots: [workspace] });
    await session.beginTurn('Add beta to the notes');
    await session.callTool('write_file', {
      path: path.join(workspace, 'notes.txt'),
      content: 'alpha\nbeta\nTODO: drop me\nomega\n',
    });
    await session.endTurn();
    await session.beginTurn('Touch the other file');
    await session.callTool('write_file', { path: path.join(workspace, 'other.txt'), content: 'y\n' });
    await session.endTurn();
    await session.beginTurn('Remove the todo');
    await session.callTool('write_file', { path: path.join(workspace, 'notes.txt'), content: 'alpha\nbeta\nomega\n' });
    await session.endTurn();
  } finally {
    await client.close();
  }
}

test('a click shows a file’s diff, the checkbox selects it, and Restore this file is one click then the plan', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(path.join(vigil.workspace, name), `${name} v1\n`);
  await writeFile(path.join(vigil.workspace, 'run.sh'), 'echo hi\n', { mode: 0o644 });
  await chmod(path.join(vigil.workspace, 'run.sh'), 0o644);
  await symlink('a.txt', path.join(vigil.workspace, 'current'));
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(path.join(vigil.workspace, name), `${name} v2\n`);
  await chmod(path.join(vigil.workspace, 'run.sh'), 0o755);
  await rm(path.join(vigil.workspace, 'current'));
  await symlink('b.txt', path.join(vigil.workspace, 'current'));
  await openCheckpoint(page, id);
  const files = page.getByTestId('changed-files');
  await expect(page.getByTestId('changed-file')).toHaveCount(5);
  // A mode-only change and a link's new target say what changed, not "+0 −0".
  await expect(page.locator('[data-testid="changed-file"][data-path="run.sh"]').getByTestId('file-note')).toHaveText(
    'mode 644 → 755',
  );
  await expect(page.locator('[data-testid="changed-file"][data-path="current"]').getByTestId('file-note')).toHaveText(
    'link: a.txt → b.txt',
  );

  // A click shows the diff of that file, and selects nothing.
  await page.locator('[data-testid="changed-file"][data-path="c.txt"] .file-path').click();
  const stacked = page.getByTestId('stacked-diff');
  await expect(stacked.getByTestId('stacked-file')).toHaveCount(1);
  await expect(stacked.getByTestId('stacked-file')).toHaveAttribute('data-path', 'c.txt');
  await expect(stacked.locator('.diff-added')).toContainText('c.txt v2');
  await expect(files).toHaveAttribute('data-selected-count', '0');

  // The checkbox selects it for restore (and a second file adds to the selection).
  await page.locator('[data-testid="changed-file"][data-path="a.txt"]').getByTestId('file-check').click();
  await page.locator('[data-testid="changed-file"][data-path="b.txt"]').getByTestId('file-check').click();
  await expect(files).toHaveAttribute('data-selected-count', '2');
  await expect(
    page.locator('[data-testid="changed-file"][data-path="a.txt"]').getByTestId('file-check'),
  ).toHaveAttribute('data-state', 'checked');
  // Assistive technology reads the same from the row (the grid's rows are selectable).
  await expect(page.locator('[role="row"]:has([data-testid="changed-file"][data-path="a.txt"])')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByTestId('restore-selected')).toHaveText('Restore selected (2)');
  // The diff still shows the file clicked.
  await expect(stacked.getByTestId('stacked-file')).toHaveAttribute('data-path', 'c.txt');
  await saveScreens(page, testInfo, 'click-to-see-check-to-select');

  // Restore this file: one click, then the plan names only it.
  await page.locator('[data-testid="changed-file"][data-path="b.txt"]').getByTestId('restore-file').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await expect(plan.getByTestId('plan-restore').locator('li')).toHaveText([/b\.txt/]);
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  expect(await readFile(path.join(vigil.workspace, 'b.txt'), 'utf8')).toBe('b.txt v1\n');
  expect(await readFile(path.join(vigil.workspace, 'a.txt'), 'utf8')).toBe('a.txt v2\n');
});

test('the stacked view shows 200 changed files, with a tree to jump and a notice for what it cannot show', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const names = Array.from({ length: 200 }, (_, index) => `src/part-${String(index).padStart(3, '0')}.txt`);
  await mkdir(path.join(vigil.workspace, 'src'), { recursive: true });
  await mkdir(path.join(vigil.workspace, 'node_modules', 'dep'), { recursive: true });
  for (const name of names) await writeFile(path.join(vigil.workspace, name), `${name}\nfirst\n`);
  await writeFile(path.join(vigil.workspace, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  await writeFile(path.join(vigil.workspace, 'build.log'), 'excluded\n');
  // Over the size cap (50 MiB by default).
  await writeFile(path.join(vigil.workspace, 'huge.txt'), Buffer.alloc(51 * 1024 * 1024, 0x78));
  await writeFile(path.join(vigil.workspace, 'blob.dat'), Buffer.from([0, 1, 2, 3, 0, 255]));
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  for (const name of names) await writeFile(path.join(vigil.workspace, name), `${name}\nsecond\n`);
  await writeFile(path.join(vigil.workspace, 'blob.dat'), Buffer.from([0, 1, 2, 3, 0, 254]));

  await openCheckpoint(page, id);
  await expect(page.getByTestId('diff-summary')).toHaveText(/^201 files differ/);
  await page.getByTestId('diff-mode-all').click();
  const stacked = page.getByTestId('stacked-diff');
  await expect(stacked).toHaveAttribute('data-files', '201');
  // Virtualized: only what is in view is drawn.
  expect(await stacked.getByTestId('stacked-file').count()).toBeLessThan(60);
  await saveScreens(page, testInfo, 'stacked-diff');

  // The tree jumps: End moves to its last file (the binary one, after the folder), and the stack follows with its one-line notice.
  await page.getByTestId('changed-files').focus();
  await page.keyboard.press('End');
  await expect(page.locator('[data-testid="changed-file"][data-path="blob.dat"]')).toBeVisible();
  await expect(stacked.locator('[data-testid="stacked-notice"][data-path="blob.dat"]')).toContainText(
    'Not shown as text',
  );
  // A click on a file far from the view brings it into the stack.
  const last = page.locator('[data-testid="changed-file"][data-path="src/part-199.txt"]');
  await last.locator('.file-path').click();
  await expect(stacked.locator('[data-testid="stacked-file"][data-path="src/part-199.txt"]')).toBeVisible();
  await expect(stacked.locator('[data-testid="diff-line"][data-path="src/part-199.txt"].diff-added')).toContainText(
    'second',
  );
  // The end of the stack: the paths the checkpoint did not store, each with why.
  await stacked.locator('.stacked-diff-scroll').hover();
  await page.mouse.wheel(0, 100_000);
  await expect(stacked.locator('[data-testid="stacked-skipped"][data-path="build.log"]')).toContainText('excluded');
  await expect(stacked.locator('[data-testid="stacked-skipped"][data-path="huge.txt"]')).toContainText(
    'larger than the size cap: not stored, so it cannot be shown or restored',
  );
});

/**
 * Routes the served page's link to the core through the test and reloads the page onto it, so the
 * answers to `checkpoints:file-diffs` can be held back: a live comparison's recompute then stays
 * under way (the detail "out of date") for as long as a step needs, instead of a few milliseconds.
 */
async function holdableDiffs(
  page: Page,
): Promise<{ readonly hold: () => void; readonly heldCount: () => number; readonly release: () => void }> {
  let isHolding = false;
  let held: Array<() => void> = [];
  const diffCalls = new Set<number>();
  const parse = (message: string | Buffer): { type?: string; id?: number; channel?: string } =>
    JSON.parse(String(message)) as { type?: string; id?: number; channel?: string };
  await page.routeWebSocket(/./, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      const frame = parse(message);
      if (frame.channel === 'checkpoints:file-diffs' && frame.id !== undefined) diffCalls.add(frame.id);
      server.send(message);
    });
    server.onMessage((message) => {
      const frame = parse(message);
      const isDiffs = frame.type === 'result' && frame.id !== undefined && diffCalls.has(frame.id);
      if (isHolding && isDiffs) held.push(() => socket.send(message));
      else socket.send(message);
    });
  });
  await page.reload();
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  return {
    hold: () => {
      isHolding = true;
    },
    heldCount: () => held.length,
    release: () => {
      isHolding = false;
      for (const send of held) send();
      held = [];
    },
  };
}

test.describe('a three-line drag', () => {
  test('a drag across three lines and "Restore these lines" puts back only those lines; undo takes them away again', async ({
    page,
    vigil,
  }, testInfo) => {
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
    const file = path.join(vigil.workspace, 'poem.txt');
    const original = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`);
    await writeFile(file, `${original.join('\n')}\n`);
    await runCli(vigil.home, ['checkpoint', vigil.workspace]);
    const id = await newestCheckpoint(vigil.home, vigil.workspace);
    // Now: lines 3-5 are gone, and line 9 was rewritten.
    const now = ['line 1', 'line 2', 'line 6', 'line 7', 'line 8', 'line nine, rewritten', 'line 10'];
    await writeFile(file, `${now.join('\n')}\n`);

    await openCheckpoint(page, id);
    await page.locator('[data-testid="changed-file"][data-path="poem.txt"] .file-path').click();
    const stacked = page.getByTestId('stacked-diff');
    const removed = stacked.locator('[data-testid="diff-line"][data-path="poem.txt"].diff-removed');
    await expect(removed).toHaveCount(4);
    await expect(removed.nth(0)).toContainText('line 3');
    await expect(removed.nth(2)).toContainText('line 5');

    // A real mouse: press on "line 3", drag onto "line 5", release.
    const from = await centre(removed.nth(0));
    const to = await centre(removed.nth(2));
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    // The press has picked its line before the pointer moves on (as a hand does), and the pointer
    // reaches "line 5" before it lets go.
    await expect(stacked).not.toHaveAttribute('data-picked', '0');
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await expect(stacked).toHaveAttribute('data-picked', '3');
    await page.mouse.up();
    await expect(stacked).toHaveAttribute('data-picked', '3');
    await expect(page.getByTestId('line-selection-bar')).toContainText('3 changed lines picked in poem.txt');
    await saveScreens(page, testInfo, 'line-selection');

    // Another file changes: the live comparison recomputes, and the lines picked in poem.txt stay picked.
    await writeFile(path.join(vigil.workspace, 'elsewhere.txt'), 'new\n');
    await expect(page.getByTestId('diff-summary')).toHaveText(/^2 files differ /);
    await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-stale', 'false');
    await expect(stacked).toHaveAttribute('data-picked', '3');

    await page.getByTestId('restore-lines').click();
    const plan = page.getByTestId('restore-plan');
    await expect(plan).toHaveAttribute('data-state', 'ready');
    await expect(plan.getByTestId('line-plan-preview')).toContainText('line 4');
    await expect(plan.getByTestId('plan-confirm')).toHaveText('Restore these lines');
    await saveScreens(page, testInfo, 'line-restore-plan');
    // Nothing is written before the confirmation.
    expect(await readFile(file, 'utf8')).toBe(`${now.join('\n')}\n`);
    await plan.getByTestId('plan-confirm').click();
    await expect(plan).toHaveCount(0);
    expect(await readFile(file, 'utf8')).toBe(
      'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline nine, rewritten\nline 10\n',
    );

    // The restore shows on the timeline as its restore point, and undo puts the file back as it was.
    await expect(page.locator('[data-testid="timeline-entry"][data-kind="pre-rollback"]')).toHaveCount(1);
    await page.getByTestId('undo-restore').click();
    await expect(plan).toHaveAttribute('data-state', 'ready');
    await plan.getByTestId('plan-confirm').click();
    await expect(plan).toHaveCount(0);
    await expect.poll(() => readFile(file, 'utf8')).toBe(`${now.join('\n')}\n`);
  });
});

test('a drag goes on while the live comparison recomputes under it: the diff stays where it was, and the pick follows the pointer', async ({
  page,
  vigil,
}) => {
  test.skip(vigil.kind === 'electron', 'holds answers on the served page’s WebSocket; the Electron app talks over IPC');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const diffs = await holdableDiffs(page);
  const file = path.join(vigil.workspace, 'poem.txt');
  const original = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`);
  await writeFile(file, `${original.join('\n')}\n`);
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  const detail = await openCheckpoint(page, id);
  // Lines 3-5 go while the comparison is open: it recomputes once, and shows them.
  const now = ['line 1', 'line 2', 'line 6', 'line 7', 'line 8', 'line 9', 'line 10'];
  await writeFile(file, `${now.join('\n')}\n`);
  await page.locator('[data-testid="changed-file"][data-path="poem.txt"] .file-path').click();
  const stacked = page.getByTestId('stacked-diff');
  const removed = stacked.locator('[data-testid="diff-line"][data-path="poem.txt"].diff-removed');
  await expect(removed).toHaveCount(3);
  await expect(detail).toHaveAttribute('data-stale', 'false');

  const from = await centre(removed.nth(0));
  const to = await centre(removed.nth(2));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await expect(stacked).toHaveAttribute('data-picked', '1');
  // The folder changes (the same bytes written again) while the pointer is held: the comparison is
  // out of date and recomputes, and the test holds poem.txt's new diff back. Meanwhile its lines stay
  // on screen, where they were: neither the "out of date" badge nor the reload moves them (the cause of
  // a drag that stayed at one line when this happened between measuring the rows and moving).
  diffs.hold();
  await writeFile(file, `${now.join('\n')}\n`);
  await expect.poll(() => diffs.heldCount()).toBeGreaterThan(0);
  await expect(detail).toHaveAttribute('data-stale', 'true');
  await expect(removed).toHaveCount(3);
  const still = await removed.nth(2).boundingBox();
  expect(Math.abs((still?.y ?? 0) + (still?.height ?? 0) / 2 - to.y)).toBeLessThan(1);
  // The pointer reaches "line 5" meanwhile: the pick follows it.
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await expect(stacked).toHaveAttribute('data-picked', '3');
  diffs.release();
  await expect(detail).toHaveAttribute('data-stale', 'false');
  await expect(stacked).toHaveAttribute('data-picked', '3');
  await page.mouse.up();
  await expect(stacked).toHaveAttribute('data-picked', '3');
  await expect(page.getByTestId('line-selection-bar')).toContainText('3 changed lines picked in poem.txt');

  await page.getByTestId('restore-lines').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  expect(await readFile(file, 'utf8')).toBe(`${original.join('\n')}\n`);
});

test('lines that no longer apply are refused with the reason, nothing is written, and the whole file is offered', async ({
  page,
  vigil,
}) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const file = path.join(vigil.workspace, 'poem.txt');
  await writeFile(file, 'one\ntwo\nthree\nfour\n');
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  await writeFile(file, 'one\nfour\n');
  await openCheckpoint(page, id);
  await page.locator('[data-testid="changed-file"][data-path="poem.txt"] .file-path').click();
  const stacked = page.getByTestId('stacked-diff');
  await expect(stacked.locator('[data-testid="diff-line"].diff-removed')).toHaveCount(2);
  await stacked.getByTestId('pick-hunk').click();
  await expect(stacked).toHaveAttribute('data-picked', '2');
  // The file changes under the picked lines before the plan is made.
  await writeFile(file, 'ONE\nFOUR\nfive\n');
  await page.getByTestId('restore-lines').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan.getByTestId('error-notice')).toBeVisible();
  await expect(plan.getByTestId('plan-confirm')).toBeDisabled();
  expect(await readFile(file, 'utf8')).toBe('ONE\nFOUR\nfive\n');
  await plan.getByTestId('restore-whole-file').click();
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await expect(plan.getByTestId('plan-restore').locator('li')).toHaveText([/poem\.txt/]);
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  expect(await readFile(file, 'utf8')).toBe('one\ntwo\nthree\nfour\n');
});

test('a file that is not UTF-8 text offers no lines to pick, says why, and can still be restored whole', async ({
  page,
  vigil,
}) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const file = path.join(vigil.workspace, 'latin1.txt');
  // "café" in Latin-1: its bytes could not be kept through a line merge.
  const before = Buffer.from('caf\xe9\nb\nc\n', 'latin1');
  await writeFile(file, before);
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const id = await newestCheckpoint(vigil.home, vigil.workspace);
  await writeFile(file, Buffer.from('caf\xe9\nc\n', 'latin1'));
  await openCheckpoint(page, id);
  await page.locator('[data-testid="changed-file"][data-path="latin1.txt"] .file-path').click();
  const stacked = page.getByTestId('stacked-diff');
  await expect(stacked.locator('[data-testid="stacked-notice"][data-path="latin1.txt"]')).toHaveText(
    'Binary, 9 → 7 bytes. Not shown as text (binary, or not UTF-8): its bytes differ, and its lines cannot be picked. Restore the whole file to bring it back.',
  );
  await expect(stacked.getByTestId('diff-line')).toHaveCount(0);
  await expect(stacked.getByTestId('pick-hunk')).toHaveCount(0);
  await stacked.getByTestId('stacked-restore-file').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  expect(Buffer.compare(await readFile(file), before)).toBe(0);
});

test('a file’s history lists the versions that changed it, with actor and turn; search finds the turn that removed a line', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await threeTurns(vigil.home, vigil.workspace);
  await page.getByTestId('nav-timeline').click();
  const entries = page.getByTestId('timeline-list').getByTestId('timeline-entry');
  await expect(entries).toHaveCount(3);
  const oldest = await entries.nth(2).getAttribute('data-checkpoint-id');
  if (oldest === null) throw new Error('no checkpoint id');
  await openCheckpoint(page, oldest);

  await page.locator('[data-testid="changed-file"][data-path="notes.txt"]').getByTestId('file-history').click();
  const history = page.getByTestId('file-history-panel');
  await expect(history).toHaveAttribute('data-state', 'ready');
  await expect(history.getByTestId('file-version')).toHaveCount(2);
  await expect(history.getByTestId('file-version-message')).toHaveText(['Remove the todo', 'Add beta to the notes']);
  await expect(history.getByTestId('file-version-actor').first()).toContainText('historian');
  await expect(history.getByTestId('file-history-summary')).toHaveText(
    '2 of 3 checkpoints were followed by a change to it.',
  );
  await saveScreens(page, testInfo, 'file-history');
  // Any version can be restored: the first one (before "Add beta").
  await history.getByTestId('file-version-restore').nth(1).click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await expect(plan.getByTestId('plan-restore').locator('li')).toHaveText([/notes\.txt/]);
  await plan.getByTestId('plan-cancel').click();
  // Any version can be compared with now: the detail of that checkpoint opens on the file.
  await page.locator('[data-testid="changed-file"][data-path="notes.txt"]').getByTestId('file-history').click();
  await expect(history.getByTestId('file-version')).toHaveCount(2);
  await history.getByTestId('file-version-compare').first().click();
  await expect(history).toHaveCount(0);
  const newest = await page.locator('[data-testid="timeline-entry"]').first().getAttribute('data-checkpoint-id');
  await expect(page.getByTestId('checkpoint-header')).toHaveAttribute('data-checkpoint-id', newest ?? '');
  await expect(page.getByTestId('stacked-diff').getByTestId('stacked-file')).toHaveAttribute('data-path', 'notes.txt');

  await page.getByTestId('past-search').fill('TODO: drop me');
  await page.getByTestId('past-search').press('Enter');
  const search = page.getByTestId('past-search-panel');
  await expect(search).toHaveAttribute('data-state', 'ready');
  const hits = search.getByTestId('past-search-hit');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText('notes.txt');
  await expect(hits.first()).toContainText('1 → 0: went away');
  await expect(hits.first()).toContainText('Remove the todo');
  await saveScreens(page, testInfo, 'past-search');
  await hits.first().click();
  await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('[data-testid="diff-line"][data-path="notes.txt"].diff-removed')).toContainText(
    'TODO: drop me',
  );
});

test('Checkpoint now takes a name, any checkpoint can be renamed and pinned, and a pinned one survives retention', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await writeFile(path.join(vigil.home, 'config.json'), JSON.stringify({ checkpoints: { maxSnapshots: 3 } }));
  const file = path.join(vigil.workspace, 'count.txt');
  await writeFile(file, '0\n');
  await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  const first = await newestCheckpoint(vigil.home, vigil.workspace);
  await page.getByTestId('nav-timeline').click();
  await expect(page.getByTestId('timeline-retention')).toHaveText('keeps the newest 3');
  await expect(page.getByTestId('timeline-pinned')).toHaveText('0 pinned');

  await writeFile(file, '1\n');
  await page.getByTestId('checkpoint-name').fill('before the big change');
  await page.getByTestId('checkpoint-now').click();
  const entries = page.getByTestId('timeline-list').getByTestId('timeline-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.first().getByTestId('row-title')).toHaveText('before the big change');
  await expect(page.getByTestId('checkpoint-name')).toHaveValue('');

  // Rename it and pin it from its detail.
  const named = await entries.first().getAttribute('data-checkpoint-id');
  if (named === null) throw new Error('no checkpoint id');
  await openCheckpoint(page, named);
  await page.getByTestId('checkpoint-rename').click();
  await page.getByTestId('checkpoint-name-input').fill('the good state');
  await page.getByTestId('checkpoint-name-save').click();
  await expect(page.getByTestId('checkpoint-title')).toContainText('the good state');
  await expect(entries.first().getByTestId('row-title')).toHaveText('the good state');
  await page.getByTestId('pin-toggle').click();
  await expect(page.getByTestId('pin-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('timeline-pinned')).toHaveText('1 pinned');
  await saveScreens(page, testInfo, 'names-and-pins');
  expect((await runCli(vigil.home, ['checkpoints', 'list', vigil.workspace])).stdout).toContain('the good state');

  // Four more checkpoints: retention keeps the newest 3 and the pinned one (with what lies between), and drops the rest.
  for (let index = 2; index <= 5; index += 1) {
    await writeFile(file, `${index}\n`);
    await runCli(vigil.home, ['checkpoint', vigil.workspace]);
  }
  await expect(page.getByTestId('timeline-count')).toHaveText('5 checkpoints');
  await expect(page.locator(`[data-testid="timeline-entry"][data-checkpoint-id="${named}"]`)).toHaveCount(1);
  await expect(page.locator(`[data-testid="timeline-entry"][data-checkpoint-id="${first}"]`)).toHaveCount(0);
  const json = JSON.parse((await runCli(vigil.home, ['checkpoints', 'list', vigil.workspace, '--json'])).stdout) as {
    entries: Array<{ id: string }>;
  };
  expect(json.entries.map((entry) => entry.id)).toContain(named);
  expect(json.entries.map((entry) => entry.id)).not.toContain(first);
});

test('a turn is rewound from its timeline row, and Restore… on a row is one click then the plan', async ({
  page,
  vigil,
}, testInfo) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await threeTurns(vigil.home, vigil.workspace);
  await page.getByTestId('nav-timeline').click();
  const entries = page.getByTestId('timeline-list').getByTestId('timeline-entry');
  await expect(entries).toHaveCount(3);

  // Restore… on the oldest row: the plan at once.
  await entries.nth(2).hover();
  await entries.nth(2).getByTestId('row-restore').click();
  const plan = page.getByTestId('restore-plan');
  await expect(plan).toHaveAttribute('data-state', 'ready');
  await expect(plan.getByTestId('plan-restore')).toContainText('notes.txt');
  await plan.getByTestId('plan-cancel').click();

  // Rewind turn 3 from its row (the newest): code only, so notes.txt gets its TODO back.
  await entries.nth(0).hover();
  await expect(entries.nth(0).getByTestId('row-rewind')).toHaveText('Rewind turn 3…');
  await saveScreens(page, testInfo, 'row-actions');
  await entries.nth(0).getByTestId('row-rewind').click();
  const rewind = page.getByTestId('rewind-plan');
  await expect(rewind).toBeVisible();
  await page.getByTestId('rewind-mode-code').click();
  await expect(rewind.getByTestId('plan-restore')).toContainText('notes.txt');
  await rewind.getByTestId('plan-confirm').click();
  await expect(rewind).toHaveCount(0);
  await expect
    .poll(() => readFile(path.join(vigil.workspace, 'notes.txt'), 'utf8'))
    .toBe('alpha\nbeta\nTODO: drop me\nomega\n');
  expect(await readFile(path.join(vigil.workspace, 'other.txt'), 'utf8')).toBe('y\n');
});

test.describe('line restore by drag on either side', () => {
  // The virtualized rows are drawn again while the pointer moves (each pick re-renders them), which
  // on a loaded machine can leave a drag short of its last row; a retry takes a fresh page. A real
  // regression (the old "+11 -0" pick) fails every attempt.
  test.describe.configure({ retries: 2 });

  test('a drag over the old lines of a rewritten block, or over its new lines, restores that block as `--lines` does: the old lines replace the new ones, never sit beside them', async ({
    page,
    vigil,
  }) => {
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
    const file = path.join(vigil.workspace, 'block.txt');
    const original = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
    await writeFile(file, `${original.join('\n')}\n`);
    await runCli(vigil.home, ['checkpoint', vigil.workspace]);
    const id = await newestCheckpoint(vigil.home, vigil.workspace);
    // Lines 10–20 were rewritten into 25 new lines.
    const rewritten = Array.from({ length: 25 }, (_, index) => `rewritten ${index + 1}`);
    const now = [...original.slice(0, 9), ...rewritten, ...original.slice(20)];
    await writeFile(file, `${now.join('\n')}\n`);

    for (const side of ['removed', 'added'] as const) {
      await openCheckpoint(page, id);
      await page.locator('[data-testid="changed-file"][data-path="block.txt"] .file-path').click();
      const stacked = page.getByTestId('stacked-diff');
      const lines = stacked.locator(`[data-testid="diff-line"][data-path="block.txt"].diff-${side}`);
      // Old side: lines 10 to 20 (all of the old block). New side: its first three lines only.
      if (side === 'added') {
        // The new lines sit below the old ones: scroll the diff to them, as a hand would.
        await stacked.hover();
        await page.mouse.wheel(0, 200);
        await expect(lines.nth(2)).toBeInViewport();
      }
      // A real mouse: press on the first line, drag onto the last, release (each spot found as the rows are drawn then).
      await lines.nth(0).hover({ position: { x: 60, y: 8 } });
      await page.mouse.down();
      // The press has picked its line before the pointer moves on.
      await expect(stacked).not.toHaveAttribute('data-picked', '0');
      const to = await centre(lines.nth(side === 'removed' ? 10 : 2));
      await page.mouse.move(to.x, to.y, { steps: 6 });
      await page.mouse.up();
      // Old side: the 11 old lines and the 25 new lines that stand for them; new side: 3 + 3.
      await expect(stacked).toHaveAttribute('data-picked', side === 'removed' ? '36' : '6');
      await page.getByTestId('restore-lines').click();
      const plan = page.getByTestId('restore-plan');
      await expect(plan).toHaveAttribute('data-state', 'ready');
      await plan.getByTestId('plan-confirm').click();
      await expect(plan).toHaveCount(0);
      const expected =
        side === 'removed' ? original : [...original.slice(0, 12), ...rewritten.slice(3), ...original.slice(20)];
      // The CLI's `--lines` gives the same file from the same versions.
      expect(await readFile(file, 'utf8')).toBe(`${expected.join('\n')}\n`);
      await writeFile(file, `${now.join('\n')}\n`);
    }
    const cli = await runCli(vigil.home, [
      'checkpoints',
      'restore',
      vigil.workspace,
      id,
      'block.txt',
      '--lines',
      '10-12',
    ]);
    expect(cli.stdout).toContain('3 line(s) put back, 3 taken out');
    expect(await readFile(file, 'utf8')).toBe(
      `${[...original.slice(0, 12), ...rewritten.slice(3), ...original.slice(20)].join('\n')}\n`,
    );
  });
});
