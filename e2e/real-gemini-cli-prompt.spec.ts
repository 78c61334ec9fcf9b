import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { whyNoTerminal } from '../electron/test-support/real-agents/index';
import { scenarioMarker, type Scenario } from '../electron/test-support/scripted-model/index';
import { realAgent, whyCannotRun, writePolicy, type RealAgent } from './fixtures/real-agents';
import { expect, test } from './fixtures/vigil-fixture';

/**
 * The real Gemini CLI (the pinned devDependency) run interactive (`gemini -i`) on a pseudo-terminal,
 * as a person's shell runs it, offline against the scripted model, under Vigil's hooks as
 * `vigil connect gemini-cli --hooks --write` installs them, with `vigil serve` and its UI in
 * Chromium. Vigil's "ask" is Gemini CLI's own confirmation; the test answers it with keystrokes.
 */

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Gemini CLI would confirm a write_file itself too, so the scenario runs the asked-about command alone. */
const prompted: Scenario = {
  name: 'gm-prompt',
  turns: [
    [{ kind: 'tool', name: 'run_shell_command', input: { command: 'touch asked.txt', description: 'Marker' } }],
    [{ kind: 'text', text: 'Answered.' }],
  ],
};

let agent: RealAgent | undefined;

test.beforeEach(async ({ vigil }) => {
  const why = (await whyCannotRun('gemini')) ?? (await whyNoTerminal());
  test.skip(why !== undefined, `Gemini CLI cannot run in a terminal here: ${why ?? ''}`);
  test.skip(vigil.kind !== 'served', 'the agent relays to the vigil serve of this test');
  await writePolicy(vigil.home, [
    { effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks about every touch' },
  ]);
  agent = await realAgent('gemini', { vigilHome: vigil.home, project: vigil.workspace }, [prompted]);
  expect(await agent.vigil(['connect', 'gemini-cli', '--hooks', '--write'])).toContain('Wrote');
});

test.afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

function geminiCards(page: Page) {
  return page
    .locator('[data-testid="session-card"]')
    .filter({ has: page.locator('.session-agent', { hasText: 'gemini-cli' }) });
}

/** Gemini CLI's own confirmation of `touch asked.txt`, with Vigil's reason on its own line inside the box. */
const confirmation = /Shell\s+touch asked\.txt[\s│]*Vigil: the test asks about every touch[\s\S]*?Allow once/u;

/** Ctrl+C, typed once the turn has ended (`when`); typed again when asked to, it ends interactive Gemini CLI. */
function quitAfter(when: RegExp) {
  return [
    { when, keys: '\u0003' },
    { when: /again to exit/u, keys: '\u0003' },
  ];
}

/** A promise and the function that settles it. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test("interactive, in a terminal: Vigil's ask is Gemini CLI's own confirmation with Vigil's reason; while it waits, its card and Approvals show it, read-only; allowed there, the command runs", async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const atPrompt = gate();
  const answer = gate();
  const running = agent.runInTerminal(
    ['-i', `${scenarioMarker('gm-prompt')} Make a marker`],
    [
      {
        when: confirmation,
        keys: async () => {
          atPrompt.open();
          await answer.promise;
          return '\r';
        },
      },
      ...quitAfter(/Answered\./u),
    ],
  );
  try {
    // Gemini CLI now waits at its own confirmation: Vigil's hook answered "ask" before it asked.
    await Promise.race([atPrompt.promise, running]);
    const card = geminiCards(page);
    await expect(card).toHaveAttribute('data-status', 'waiting-approval');
    await expect(card.getByTestId('session-pending-call')).toHaveText(
      'asking in Gemini CLI: run_shell_command touch asked.txt',
    );
    await page.keyboard.press('Alt+4');
    const entry = page.getByTestId('agent-prompt-card');
    await expect(entry).toHaveCount(1);
    await expect(entry.getByTestId('approval-command')).toHaveText('touch asked.txt');
    await expect(entry).toContainText('the test asks about every touch');
    await expect(entry.getByTestId('agent-prompt-note')).toContainText(
      "The decision is made in Gemini CLI's own permission prompt",
    );
    await expect(entry.getByRole('button')).toHaveCount(0);
  } finally {
    answer.open();
  }
  const run = await running;
  expect(run.stepsTaken, run.stdout.slice(-3000)).toBe(3);
  expect(run.code, run.stderr).toBe(0);
  const [touch] = agent.model.results('gm-prompt');
  expect(touch?.isError).toBe(false);
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(true);

  // Answered: it leaves Approvals; the session ends when Gemini CLI exits.
  await expect(page.getByTestId('agent-prompt-card')).toHaveCount(0);
  await page.keyboard.press('Alt+1');
  const card = geminiCards(page);
  await expect(card.getByTestId('session-pending-call')).toHaveCount(0);
  await expect(card.getByTestId('session-call')).toHaveAttribute('data-decision', 'asked-allowed');
  await expect(card).toHaveAttribute('data-status', 'ended');
});

test("interactive, in a terminal: refused in Gemini CLI's own confirmation (Esc), the command does not run; the session ends with nothing left asking", async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  const run = await agent.runInTerminal(
    ['-i', `${scenarioMarker('gm-prompt')} Make a marker`],
    [{ when: confirmation, keys: '\u001b' }, ...quitAfter(/Request cancelled\./u)],
  );
  expect(run.stepsTaken, run.stdout.slice(-3000)).toBe(3);
  expect(run.code, run.stderr).toBe(0);
  expect(agent.model.results('gm-prompt')).toEqual([]);
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(false);
  const card = geminiCards(page);
  await expect(card).toHaveAttribute('data-status', 'ended');
  await expect(card.getByTestId('session-pending-call')).toHaveCount(0);
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('agent-prompt-card')).toHaveCount(0);
  await expect(page.getByTestId('approvals-empty')).toBeVisible();
});
