import { spawn } from 'node:child_process';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { claudeCodeEvents, type RecordedSession } from '../electron/hooks/test-support/recorded-events';
import { saveScreens } from './fixtures/screens';
import { builtCli, expect, test } from './fixtures/vigil-fixture';

/** Runs the built `vigil hook claude-code` as Claude Code does: the recorded event on stdin; resolves with what it printed. */
function hook(home: string, event: object): Promise<string> {
  const child = spawn(process.execPath, [builtCli, 'hook', 'claude-code'], {
    env: { ...process.env, VIGIL_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(JSON.stringify(event));
  return new Promise((resolve, reject) => {
    child.on('close', (code) =>
      code === 0 && stderr === '' ? resolve(stdout) : reject(new Error(`vigil hook exited ${String(code)}: ${stderr}`)),
    );
  });
}

test('a Claude Code session reported through its hooks shows like any other: live card, titled turn, checkpoints, transcript, turn undo', async ({
  page,
  vigil,
}, testInfo) => {
  test.skip(vigil.kind !== 'served', 'the hooks relay to the running vigil serve of this test');
  const project = vigil.workspace;
  await mkdir(path.join(project, 'src'));
  await mkdir(path.join(project, 'legacy'));
  await writeFile(path.join(project, 'src/app.ts'), 'export const one = 1;\n');
  await writeFile(path.join(project, 'legacy/old.txt'), 'the old way\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const session: RecordedSession = {
    sessionId: '0e2e0e2e-1111-4222-8333-444455556666',
    cwd: project,
    transcriptPath: path.join(project, '.transcript.jsonl'),
  };
  const card = page.locator(`[data-testid="session-card"][data-session-id="claude-code-${session.sessionId}"]`);
  await hook(vigil.home, claudeCodeEvents.sessionStart(session));
  await expect(card).toHaveAttribute('data-status', 'idle');
  await expect(card.locator('.session-agent')).toHaveText('claude-code');

  await hook(vigil.home, claudeCodeEvents.prompt(session, 'Add a greeting and drop the legacy code'));
  await expect(card).toHaveAttribute('data-status', 'working');
  await expect(card.getByTestId('session-turn').locator('.session-turn-label')).toHaveText('Turn 1 · in progress');
  await expect(card.getByTestId('session-prompt')).toHaveText('Add a greeting and drop the legacy code');

  // The agent's own tools, each performed between its two events as Claude Code would.
  const hello = path.join(project, 'hello.txt');
  const write = { file_path: hello, content: 'hello\n' };
  await hook(vigil.home, claudeCodeEvents.preTool(session, 'Write', write, 'toolu_w'));
  await writeFile(hello, 'hello\n');
  await hook(
    vigil.home,
    claudeCodeEvents.postTool(session, 'Write', write, 'toolu_w', { filePath: hello, success: true }),
  );
  await expect(card).toHaveAttribute('data-calls', '1');
  await expect(card.getByTestId('session-last-call')).toContainText('hello.txt');

  const app = path.join(project, 'src/app.ts');
  const edit = { file_path: app, old_string: 'one = 1', new_string: 'ONE = 1', replace_all: false };
  await hook(vigil.home, claudeCodeEvents.preTool(session, 'Edit', edit, 'toolu_e'));
  await writeFile(app, 'export const ONE = 1;\n');
  await hook(vigil.home, claudeCodeEvents.postTool(session, 'Edit', edit, 'toolu_e', { filePath: app, success: true }));

  const remove = { command: 'rm -rf legacy', description: 'Remove the legacy folder' };
  await hook(vigil.home, claudeCodeEvents.preTool(session, 'Bash', remove, 'toolu_b'));
  await rm(path.join(project, 'legacy'), { recursive: true });
  await hook(
    vigil.home,
    claudeCodeEvents.postTool(session, 'Bash', remove, 'toolu_b', {
      stdout: '',
      stderr: '',
      interrupted: false,
      isImage: false,
    }),
  );
  await expect(card).toHaveAttribute('data-calls', '3');
  await expect(card.getByTestId('session-last-call')).toContainText('rm -rf legacy');

  await hook(vigil.home, claudeCodeEvents.stop(session));
  await expect(card).toHaveAttribute('data-status', 'idle');

  // The transcript: the turn titled by the prompt, the three calls the hooks reported, two checkpoints taken.
  await card.getByRole('button', { name: /Open the transcript/ }).click();
  const turn = page.locator('[data-testid="transcript-turn"][data-turn="1"]');
  await expect(turn.getByTestId('transcript-message').first()).toContainText('Add a greeting and drop the legacy code');
  await expect(turn.getByTestId('transcript-call')).toHaveCount(3);
  await expect(turn.getByTestId('transcript-call').nth(0)).toContainText('Write');
  await expect(turn.getByTestId('transcript-call').nth(2)).toContainText('rm -rf legacy');
  await expect(turn.locator('.transcript-checkpoints .chip')).toHaveCount(2);
  await saveScreens(page, testInfo, 'hooks-session');

  // The timeline: a checkpoint before the first write and one before the command, attributed, in the right filters.
  await page.getByTestId('nav-timeline').click();
  await expect(page.getByTestId('timeline-dir')).toHaveAttribute('data-dir', project);
  const entries = page.getByTestId('timeline-list').getByTestId('timeline-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText('before terminal: rm -rf legacy');
  await expect(entries.nth(1)).toContainText('before Write');
  await expect(entries.nth(0)).toHaveAttribute('data-session-id', `claude-code-${session.sessionId}`);
  await page.getByTestId('reason-filter').selectOption('terminal');
  await expect(entries).toHaveCount(1);
  await page.getByTestId('reason-filter').selectOption('edit');
  await expect(entries).toHaveCount(1);
  await page.getByTestId('reason-filter').selectOption('all');
  await saveScreens(page, testInfo, 'hooks-timeline');

  // Turn undo (code): everything goes back to before the turn, and nothing is flagged as edited outside the agents.
  await page.getByTestId('nav-sessions').click();
  // The transcript stayed open while the timeline was shown.
  await expect(page.getByTestId('transcript-panel')).toBeVisible();
  await turn.getByTestId('rewind-here').click();
  await page.getByTestId('rewind-mode-code').click();
  const plan = page.getByTestId('rewind-plan');
  await expect(plan.getByTestId('plan-recreate')).toContainText('legacy/old.txt');
  await expect(plan.getByTestId('plan-delete')).toContainText('hello.txt');
  await expect(plan.getByTestId('plan-outside-warning')).toHaveCount(0);
  await plan.getByTestId('plan-confirm').click();
  await expect(plan).toHaveCount(0);
  expect(await readFile(path.join(project, 'legacy/old.txt'), 'utf8')).toBe('the old way\n');
  expect(await readFile(app, 'utf8')).toBe('export const one = 1;\n');
  await expect(access(hello)).rejects.toThrow();

  await hook(vigil.home, claudeCodeEvents.sessionEnd(session));
  await expect(card).toHaveAttribute('data-status', 'ended');
});
